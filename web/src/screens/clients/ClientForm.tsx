import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { useLocation } from 'wouter';
import { describeError, fieldErrors } from '../../api/errors.ts';
import { useApi } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Select } from '../../ui/Select.tsx';
import { Alert } from '../../ui/States.tsx';
import { CLIENT_STATUSES, statusLabel, type Client } from './clientTypes.ts';

const TEXT_FIELDS = [
  'name',
  'reg_code',
  'vat_code',
  'address_street',
  'address_zip',
  'address_city',
  'address_state',
  'address_country_code',
  'locale_code',
  'client_initials',
] as const;
type TextFieldName = (typeof TEXT_FIELDS)[number];
type Values = Record<TextFieldName, string> & { status: string };

function valuesOf(client?: Client): Values {
  const values = { status: client?.status ?? 'active' } as Values;
  for (const field of TEXT_FIELDS) values[field] = client?.[field] ?? '';
  return values;
}

/** What to send: a create sends what is filled in; an edit sends only what changed (empty clears it). */
function bodyOf(values: Values, client?: Client): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of [...TEXT_FIELDS, 'status'] as const) {
    const value = values[field].trim();
    const before = client ? ((client[field] as string | null) ?? '') : '';
    if (client ? value !== before : value !== '') body[field] = value === '' && field !== 'name' ? null : value;
  }
  if (!client && !('status' in body)) body.status = values.status;
  return body;
}

/** Create or edit a client in a dialog; the API's error shows beside the field it names. */
export function ClientFormDialog({
  client,
  isOpen,
  onOpenChange,
}: {
  client?: Client;
  isOpen: boolean;
  onOpenChange(open: boolean): void;
}) {
  const t = useT();
  return (
    <Dialog
      title={client ? t('clients.editTitle') : t('clients.createTitle')}
      isOpen={isOpen}
      onOpenChange={onOpenChange}
    >
      <ClientForm client={client} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ClientForm({ client, onDone }: { client?: Client; onDone(): void }) {
  const t = useT();
  const api = useApi();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const [values, setValues] = useState<Values>(() => valuesOf(client));
  const save = useMutation({
    mutationFn: async () => {
      const body = bodyOf(values, client);
      if (client) return Object.keys(body).length ? api.clients.update(client, body) : client;
      return api.clients.create(body as Parameters<typeof api.clients.create>[0]);
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['clients'] });
      if (client) {
        queryClient.setQueryData(['clients', 'one', client.id], saved);
        notify(t('clients.saved'));
      } else {
        notify(t('clients.created_toast', { name: saved.name }));
        navigate(`/clients/${saved.id}`);
      }
      onDone();
    },
  });
  // An edit answers the API's complaint: its message goes, so the form can be sent again (RAC would keep blocking
  // the submit while the server's error for a field is still passed in).
  const set = (field: keyof Values) => (value: string) => {
    if (save.error) save.reset();
    setValues((v) => ({ ...v, [field]: value }));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const errors = fieldErrors(save.error);
  const general = save.error && Object.keys(errors).length === 0 ? describeError(save.error, t) : undefined;
  const text = (field: TextFieldName, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField label={label} name={field} value={values[field]} onChange={set(field)} {...extra} />
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
        {text('name', t('clients.name'), { isRequired: true, autoFocus: true, maxLength: 255, className: 'span-2' })}
        <Select
          label={t('clients.status')}
          name="status"
          options={CLIENT_STATUSES.map((s) => ({ id: s, label: t(statusLabel(s)) }))}
          selectedKey={values.status}
          onSelectionChange={(key) => set('status')(String(key))}
        />
        {text('client_initials', t('clients.initials'), { description: t('clients.initialsHint'), maxLength: 5 })}
        {text('reg_code', t('clients.regCode'))}
        {text('vat_code', t('clients.vatCode'))}
        {text('address_street', t('clients.street'), { className: 'span-2' })}
        {text('address_zip', t('clients.zip'))}
        {text('address_city', t('clients.city'))}
        {text('address_state', t('clients.state'))}
        {text('address_country_code', t('clients.country'), { description: t('clients.countryHint') })}
        {text('locale_code', t('clients.locale'), { description: t('clients.localeHint') })}
      </div>
      <div className="dialog-actions">
        <Button variant="ghost" onPress={onDone}>
          {t('app.cancel')}
        </Button>
        <Button type="submit" variant="primary" isPending={save.isPending}>
          {save.isPending ? t('app.saving') : client ? t('app.save') : t('app.create')}
        </Button>
      </div>
    </Form>
  );
}
