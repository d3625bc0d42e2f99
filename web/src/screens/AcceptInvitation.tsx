import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { ApiError } from '@service-api/sdk/browser';
import { clearing, describeError, fieldErrors, isApiError } from '../api/errors.ts';
import { useSession, type SessionView } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/Field.tsx';
import { Alert, Loading } from '../ui/States.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { PasswordPair } from './PasswordPair.tsx';
import { tokenFromHash } from './ResetPassword.tsx';

interface Invitation {
  company: { id: string; name: string };
  email: string;
  name: string | null;
  surname: string | null;
  has_account: boolean;
}

/** The invitation link: shows whom it is for, then sets a password (or asks the existing account's) and signs in. */
export function AcceptInvitation() {
  const t = useT();
  const { account } = useSession();
  const [token] = useState(tokenFromHash);
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: async () => {
      const response = await account.request('POST', '/auth/invitations/inspect', { body: { token } });
      return ((await response.json()) as { data: Invitation }).data;
    },
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  if (!token || isApiError(invitation.error, 'INVALID_TOKEN'))
    return (
      <AuthLayout title={t('app.errorTitle')}>
        <Alert>{t('accept.invalidLink')}</Alert>
      </AuthLayout>
    );
  if (invitation.isPending)
    return (
      <AuthLayout title={t('accept.checking')}>
        <Loading label={t('accept.checking')} />
      </AuthLayout>
    );
  if (invitation.isError)
    return (
      <AuthLayout title={t('app.errorTitle')}>
        <Alert>{describeError(invitation.error, t).message}</Alert>
      </AuthLayout>
    );
  return <AcceptForm token={token} invitation={invitation.data} />;
}

function AcceptForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const t = useT();
  const { account, adopt } = useSession();
  const [name, setName] = useState(invitation.name ?? '');
  const [surname, setSurname] = useState(invitation.surname ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const existing = invitation.has_account;
  const accept = useMutation({
    mutationFn: async () => {
      const body = { token, password, ...(existing ? {} : { name: name.trim(), surname: surname.trim() || null }) };
      const response = await account.request('POST', '/auth/invitations/accept', { body });
      return ((await response.json()) as { data: SessionView }).data;
    },
    onSuccess: (view) => {
      history.replaceState(null, '', '/');
      adopt(view);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (existing || password === confirm) accept.mutate();
  };
  const error = accept.error;
  const message =
    error instanceof ApiError && error.code === 'INVALID_CREDENTIALS'
      ? t('signIn.invalid')
      : error && Object.keys(fieldErrors(error)).length === 0
        ? describeError(error, t).message
        : undefined;
  const values = { company: invitation.company.name, email: invitation.email };
  return (
    <AuthLayout
      title={t('accept.title', values)}
      subtitle={existing ? t('accept.subtitleExisting', values) : t('accept.subtitle', values)}
    >
      <Form className="stack" onSubmit={onSubmit} validationErrors={fieldErrors(error)}>
        {message && <Alert>{message}</Alert>}
        {existing ? (
          <TextField
            label={t('accept.existingPassword')}
            name="password"
            type="password"
            autoComplete="current-password"
            isRequired
            autoFocus
            value={password}
            onChange={clearing(accept, setPassword)}
          />
        ) : (
          <>
            <TextField
              label={t('accept.name')}
              name="name"
              isRequired
              autoComplete="given-name"
              value={name}
              onChange={clearing(accept, setName)}
            />
            <TextField
              label={t('accept.surname')}
              name="surname"
              autoComplete="family-name"
              value={surname}
              onChange={clearing(accept, setSurname)}
            />
            <PasswordPair
              password={password}
              confirm={confirm}
              onPassword={clearing(accept, setPassword)}
              onConfirm={clearing(accept, setConfirm)}
              labels={{ password: t('accept.password'), confirm: t('accept.confirm') }}
            />
          </>
        )}
        <Button type="submit" variant="primary" className="btn-block" isPending={accept.isPending}>
          {t('accept.submit')}
        </Button>
      </Form>
    </AuthLayout>
  );
}
