import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { clearing, describeError, fieldErrors } from '../api/errors.ts';
import { useApi, useSession, type SessionView } from '../api/session.tsx';
import { LANGUAGES, useI18n } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmDialog } from '../ui/Dialog.tsx';
import { TextField } from '../ui/Field.tsx';
import { useNotify } from '../ui/Notices.tsx';
import { Select } from '../ui/Select.tsx';
import { Alert, Badge, Card, ErrorState, Loading, PageHeader } from '../ui/States.tsx';
import { PasswordPair } from './PasswordPair.tsx';

/** The signed-in person: name and language (their member record in this company), password, sessions. */
export function Profile() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={t('profile.title')} description={t('profile.description')} />
      <PersonalDetails />
      <ChangePassword />
      <Sessions />
    </>
  );
}

function PersonalDetails() {
  const { t } = useI18n();
  const api = useApi();
  const { membership } = useSession();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const member = useQuery({
    queryKey: ['members', 'one', membership!.member_id],
    queryFn: () => api.members.get(membership!.member_id),
  });
  if (member.isPending) return <Loading />;
  if (member.isError || !member.data) return <ErrorState error={member.error ?? new Error('member not found')} />;
  return (
    <DetailsForm
      member={member.data}
      onSaved={() =>
        void queryClient.invalidateQueries({ queryKey: ['session'] }).then(() => notify(t('profile.saved')))
      }
    />
  );
}

type Member = NonNullable<Awaited<ReturnType<ReturnType<typeof useApi>['members']['get']>>>;

function DetailsForm({ member, onSaved }: { member: Member; onSaved(): void }) {
  const { t } = useI18n();
  const api = useApi();
  const [name, setName] = useState(member.name ?? '');
  const [surname, setSurname] = useState(member.surname ?? '');
  const [locale, setLocale] = useState((member.locale_code ?? 'en').split('-')[0]!);
  const save = useMutation({
    mutationFn: () =>
      api.members.update(member, { name: name.trim(), surname: surname.trim() || null, locale_code: locale }),
    onSuccess: onSaved,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card title={t('profile.personal')}>
      <Form className="stack" onSubmit={onSubmit} validationErrors={fieldErrors(save.error)}>
        {save.error && Object.keys(fieldErrors(save.error)).length === 0 && (
          <Alert>{describeError(save.error, t).message}</Alert>
        )}
        <div className="form-grid">
          <TextField
            label={t('profile.name')}
            name="name"
            isRequired
            autoComplete="given-name"
            value={name}
            onChange={clearing(save, setName)}
          />
          <TextField
            label={t('profile.surname')}
            name="surname"
            autoComplete="family-name"
            value={surname}
            onChange={clearing(save, setSurname)}
          />
          <Select
            label={t('profile.locale')}
            name="locale_code"
            description={t('profile.localeHint')}
            options={LANGUAGES.map((code) => ({ id: code, label: t(`languages.${code}` as 'languages.en') }))}
            selectedKey={locale}
            onSelectionChange={(key) => setLocale(String(key))}
          />
        </div>
        <div className="row">
          <Button type="submit" variant="primary" isPending={save.isPending}>
            {t('app.save')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function ChangePassword() {
  const { t } = useI18n();
  const { account, adopt } = useSession();
  const notify = useNotify();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const change = useMutation({
    mutationFn: async () => {
      const body = { current_password: current, new_password: password };
      const response = await account.request('PUT', '/auth/password', { body });
      return ((await response.json()) as { data: SessionView }).data;
    },
    onSuccess: (view) => {
      adopt(view);
      setCurrent('');
      setPassword('');
      setConfirm('');
      notify(t('profile.passwordChanged'));
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === confirm) change.mutate();
  };
  const errors = fieldErrors(change.error);
  return (
    <Card title={t('profile.password')}>
      <Form className="stack" onSubmit={onSubmit} validationErrors={errors}>
        {change.error && Object.keys(errors).length === 0 && <Alert>{describeError(change.error, t).message}</Alert>}
        <div className="form-grid">
          <TextField
            label={t('profile.currentPassword')}
            name="current_password"
            type="password"
            autoComplete="current-password"
            isRequired
            value={current}
            onChange={clearing(change, setCurrent)}
            className="span-2"
          />
          <PasswordPair
            name="new_password"
            password={password}
            confirm={confirm}
            onPassword={clearing(change, setPassword)}
            onConfirm={clearing(change, setConfirm)}
            labels={{ password: t('profile.newPassword'), confirm: t('profile.confirmPassword') }}
          />
        </div>
        <div className="row">
          <Button type="submit" variant="primary" isPending={change.isPending}>
            {t('profile.changePassword')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

interface SessionRow {
  id: number;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
  ip: string | null;
  current: boolean;
}

/** A short name for a browser from its user agent ("Firefox on Linux"), for the sessions list only. */
function device(agent: string | null, unknown: string): string {
  if (!agent) return unknown;
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : undefined;
  const system = /Windows/.test(agent)
    ? 'Windows'
    : /Mac OS X|Macintosh/.test(agent)
      ? 'macOS'
      : /Android/.test(agent)
        ? 'Android'
        : /iPhone|iPad/.test(agent)
          ? 'iOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : undefined;
  return browser && system ? `${browser}, ${system}` : (browser ?? system ?? unknown);
}

function Sessions() {
  const { t, dateTime } = useI18n();
  const { account, forget } = useSession();
  const queryClient = useQueryClient();
  const [everywhere, setEverywhere] = useState(false);
  const list = useQuery({
    queryKey: ['sessions'],
    queryFn: async () =>
      ((await (await account.request('GET', '/auth/sessions')).json()) as { data: SessionRow[] }).data,
  });
  const end = useMutation({
    mutationFn: (id: number) => account.request('DELETE', `/auth/sessions/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  const endAll = useMutation({
    mutationFn: () => account.request('DELETE', '/auth/sessions'),
    onSuccess: () => forget('signed-out'),
  });
  return (
    <Card
      title={t('profile.sessions')}
      actions={
        <Button size="sm" variant="danger" onPress={() => setEverywhere(true)}>
          {t('profile.signOutEverywhere')}
        </Button>
      }
    >
      <div className="stack">
        <p className="muted">{t('profile.sessionsHint')}</p>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <ul className="session-list">
            {list.data.map((s) => {
              const name = device(s.user_agent, t('profile.unknownDevice'));
              return (
                <li key={s.id} className="session-item">
                  <div>
                    <div className="strong">
                      {name} {s.current && <Badge tone="accent">{t('profile.thisDevice')}</Badge>}
                    </div>
                    <div className="muted">
                      {t('profile.signedInAt', { time: dateTime(s.created_at) })} ·{' '}
                      {t('profile.lastSeen', { time: dateTime(s.last_seen_at) })}
                      {s.ip ? ` · ${s.ip}` : ''}
                    </div>
                  </div>
                  {!s.current && (
                    <Button
                      size="sm"
                      onPress={() => end.mutate(s.id)}
                      aria-label={t('profile.endSessionFor', { device: name })}
                    >
                      {t('profile.endSession')}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <ConfirmDialog
        title={t('profile.signOutEverywhereTitle')}
        body={t('profile.signOutEverywhereBody')}
        confirmLabel={t('profile.signOutEverywhere')}
        isOpen={everywhere}
        onOpenChange={setEverywhere}
        onConfirm={() => endAll.mutate()}
        isPending={endAll.isPending}
      />
    </Card>
  );
}
