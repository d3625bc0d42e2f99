import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { clearing, describeError, fieldErrors } from '../../api/errors.ts';
import { useApi, useSession } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { DateField } from '../../ui/DateField.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Select } from '../../ui/Select.tsx';
import { Alert } from '../../ui/States.tsx';
import { REQUEST_TYPES, TYPE_LABEL, type EntryType } from './calendarTypes.ts';

/** A member's own request: created in review, for a manager to approve. */
export function RequestDialog({
  isOpen,
  onOpenChange,
  defaultDate,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  defaultDate: string;
}) {
  const t = useT();
  return (
    <Dialog title={t('calendar.createTitle')} isOpen={isOpen} onOpenChange={onOpenChange}>
      <RequestForm defaultDate={defaultDate} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function RequestForm({ defaultDate, onDone }: { defaultDate: string; onDone(): void }) {
  const t = useT();
  const api = useApi();
  const { membership } = useSession();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [type, setType] = useState<EntryType>('vacation');
  const [from, setFrom] = useState(defaultDate);
  const [until, setUntil] = useState(defaultDate);
  const [note, setNote] = useState('');
  const submit = useMutation({
    mutationFn: () =>
      api.calendar.create({
        type,
        person_id: membership!.person_id,
        date_from: from,
        date_until: until || from,
        ...(note.trim() ? { description: note.trim() } : {}),
      } as Parameters<typeof api.calendar.create>[0]),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['calendar'] });
      notify(t('calendar.submitted'));
      onDone();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  const errors = fieldErrors(submit.error);
  return (
    <Form className="stack" onSubmit={onSubmit} validationErrors={errors}>
      {submit.error && Object.keys(errors).length === 0 && <Alert>{describeError(submit.error, t).message}</Alert>}
      <div className="form-grid">
        <Select
          label={t('calendar.type')}
          name="type"
          className="span-2"
          options={REQUEST_TYPES.map((ty) => ({ id: ty, label: t(TYPE_LABEL[ty]) }))}
          selectedKey={type}
          onSelectionChange={(key) => setType(key as EntryType)}
        />
        <DateField
          label={t('calendar.dateFromLabel')}
          name="date_from"
          isRequired
          value={from}
          onChange={clearing(submit, setFrom)}
        />
        <DateField
          label={t('calendar.dateUntilLabel')}
          name="date_until"
          value={until}
          onChange={clearing(submit, setUntil)}
        />
        <TextField
          label={t('calendar.description_label')}
          name="description"
          multiline
          value={note}
          onChange={clearing(submit, setNote)}
          className="span-2"
        />
      </div>
      <div className="dialog-actions">
        <Button variant="ghost" onPress={onDone}>
          {t('app.cancel')}
        </Button>
        <Button type="submit" variant="primary" isPending={submit.isPending}>
          {t('calendar.submit')}
        </Button>
      </div>
    </Form>
  );
}
