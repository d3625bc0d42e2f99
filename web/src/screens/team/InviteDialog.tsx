import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { clearing, describeError, fieldErrors } from '../../api/errors.ts';
import { useApi, useSession } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Select } from '../../ui/Select.tsx';
import { Alert } from '../../ui/States.tsx';
import type { Member } from './teamTypes.ts';

/** Invite a new person by e-mail, or (with `placeholder`) give a member without sign-in an invitation. */
export function InviteDialog({
  isOpen,
  onOpenChange,
  placeholder,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  placeholder?: Member;
}) {
  const t = useT();
  return (
    <Dialog title={t('team.inviteTitle')} isOpen={isOpen} onOpenChange={onOpenChange}>
      <InviteForm placeholder={placeholder} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function InviteForm({ placeholder, onDone }: { placeholder?: Member; onDone(): void }) {
  const t = useT();
  const api = useApi();
  const { membership } = useSession();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [email, setEmail] = useState(placeholder?.email ?? '');
  const [name, setName] = useState(placeholder?.name ?? '');
  const [surname, setSurname] = useState(placeholder?.surname ?? '');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const invite = useMutation({
    mutationFn: () =>
      api.request('POST', '/invitations', {
        body: {
          email: email.trim(),
          name: name.trim(),
          surname: surname.trim() || null,
          role,
          ...(placeholder ? { person_id: placeholder.person_id } : {}),
        },
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      notify(t('team.invited', { email: email.trim() }));
      onDone();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const errors = fieldErrors(invite.error);
  const roles = (['member', 'admin'] as const).filter((r) => r !== 'admin' || membership?.role !== 'member');
  return (
    <Form className="stack" onSubmit={onSubmit} validationErrors={errors}>
      <p className="muted">{t('team.inviteHint')}</p>
      {invite.error && Object.keys(errors).length === 0 && <Alert>{describeError(invite.error, t).message}</Alert>}
      <div className="form-grid">
        <TextField
          label={t('team.email')}
          name="email"
          type="email"
          isRequired
          autoFocus
          value={email}
          onChange={clearing(invite, setEmail)}
          className="span-2"
        />
        <TextField
          label={t('team.firstName')}
          name="name"
          isRequired
          value={name}
          onChange={clearing(invite, setName)}
        />
        <TextField label={t('team.lastName')} name="surname" value={surname} onChange={clearing(invite, setSurname)} />
        <Select
          label={t('team.role')}
          name="role"
          options={roles.map((r) => ({ id: r, label: t(`roles.${r}`) }))}
          selectedKey={role}
          onSelectionChange={(key) => setRole(key as 'member' | 'admin')}
        />
      </div>
      <div className="dialog-actions">
        <Button variant="ghost" onPress={onDone}>
          {t('app.cancel')}
        </Button>
        <Button type="submit" variant="primary" isPending={invite.isPending}>
          {t('team.sendInvitation')}
        </Button>
      </div>
    </Form>
  );
}
