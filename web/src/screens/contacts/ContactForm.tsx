import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { clearing, describeError, fieldErrors } from '../../api/errors.ts';
import { useApi } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { Alert } from '../../ui/States.tsx';
import { ClientPicker } from './ClientPicker.tsx';
import type { Contact } from './contactTypes.ts';

const TEXT = ['name', 'surname', 'email', 'job_title', 'mobile_phone', 'work_phone'] as const;
type Text = (typeof TEXT)[number];

/** Create a contact (for a given client, or one chosen here) or edit one. */
export function ContactFormDialog(props: {
  contact?: Contact;
  clientId?: number;
  isOpen: boolean;
  onOpenChange(open: boolean): void;
}) {
  const t = useT();
  return (
    <Dialog
      title={props.contact ? t('contacts.editTitle') : t('contacts.createTitle')}
      isOpen={props.isOpen}
      onOpenChange={props.onOpenChange}
    >
      <ContactForm contact={props.contact} clientId={props.clientId} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function ContactForm({ contact, clientId, onDone }: { contact?: Contact; clientId?: number; onDone(): void }) {
  const t = useT();
  const api = useApi();
  const queryClient = useQueryClient();
  const [client, setClient] = useState<number | null>(contact?.client_id ?? clientId ?? null);
  const [primary, setPrimary] = useState(contact?.is_primary === 1);
  const [values, setValues] = useState<Record<Text, string>>(
    () => Object.fromEntries(TEXT.map((f) => [f, contact?.[f] ?? ''])) as Record<Text, string>,
  );
  const save = useMutation({
    mutationFn: async () => {
      const body: Record<string, unknown> = {};
      for (const field of TEXT) {
        const value = values[field].trim();
        const before = contact?.[field] ?? '';
        if (contact ? value !== before : value !== '') body[field] = value === '' && field !== 'name' ? null : value;
      }
      if (!contact || primary !== (contact.is_primary === 1)) body.is_primary = primary;
      if (contact) return Object.keys(body).length ? api.contacts.update(contact, body) : contact;
      return api.contacts.create({ ...body, client_id: client } as Parameters<typeof api.contacts.create>[0]);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['contacts'] });
      await queryClient.invalidateQueries({ queryKey: ['clients', 'one'] });
      onDone();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const errors = fieldErrors(save.error);
  const general = save.error && Object.keys(errors).length === 0 ? describeError(save.error, t) : undefined;
  const field = (name: Text, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={clearing(save, (v: string) => setValues((all) => ({ ...all, [name]: v })))}
      {...extra}
    />
  );
  return (
    <Form className="stack" onSubmit={onSubmit} validationErrors={errors}>
      {general && (
        <Alert>
          {general.message}
          {general.code && <span className="muted mono"> ({general.code})</span>}
        </Alert>
      )}
      <div className="form-grid">
        {!contact && clientId === undefined && (
          <div className="span-2">
            <ClientPicker name="client_id" value={client} onChange={clearing(save, setClient)} isRequired />
          </div>
        )}
        {field('name', t('contacts.name'), { isRequired: true, autoFocus: true, maxLength: 255 })}
        {field('surname', t('contacts.surname'))}
        {field('email', t('contacts.email'), { type: 'email', className: 'span-2' })}
        {field('job_title', t('contacts.jobTitle'), { className: 'span-2' })}
        {field('mobile_phone', t('contacts.mobile'), { type: 'tel' })}
        {field('work_phone', t('contacts.workPhone'), { type: 'tel' })}
        <div className="span-2">
          <Checkbox isSelected={primary} onChange={setPrimary} name="is_primary">
            {t('contacts.primary')}
          </Checkbox>
        </div>
      </div>
      <div className="dialog-actions">
        <Button variant="ghost" onPress={onDone}>
          {t('app.cancel')}
        </Button>
        <Button type="submit" variant="primary" isPending={save.isPending}>
          {save.isPending ? t('app.saving') : contact ? t('app.save') : t('app.create')}
        </Button>
      </div>
    </Form>
  );
}
