import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { useLocation, useParams } from 'wouter';
import { describeError } from '../../api/errors.ts';
import { useApi } from '../../api/session.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Pager, useCursorPages } from '../../ui/Pager.tsx';
import { Alert, Badge, Card, ErrorState, Loading, PageHeader } from '../../ui/States.tsx';
import { ContactFormDialog } from '../contacts/ContactForm.tsx';
import { ContactsTable } from '../contacts/ContactsTable.tsx';
import { NotFound } from '../NotFound.tsx';
import { ClientFormDialog } from './ClientForm.tsx';
import { STATUS_TONE, statusLabel, type Client } from './clientTypes.ts';
import { isApiError } from '../../api/errors.ts';

/** One client: its details, edit and delete, and its contacts. */
export function ClientDetail() {
  const { id } = useParams<{ id: string }>();
  const clientId = Number(id);
  const api = useApi();
  const client = useQuery({
    queryKey: ['clients', 'one', clientId],
    queryFn: () => api.clients.get(clientId),
    enabled: Number.isSafeInteger(clientId) && clientId > 0,
  });
  if (!Number.isSafeInteger(clientId) || clientId <= 0 || isApiError(client.error, 'NOT_FOUND')) return <NotFound />;
  if (client.isPending) return <Loading />;
  if (client.isError) return <ErrorState error={client.error} onRetry={() => void client.refetch()} />;
  return <ClientView client={client.data} />;
}

function ClientView({ client }: { client: Client }) {
  const { t, dateTime } = useI18n();
  const api = useApi();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.clients.delete(client),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ['clients', 'one', client.id] });
      await queryClient.invalidateQueries({ queryKey: ['clients'] });
      notify(t('clients.deleted', { name: client.name }));
      navigate('/clients');
    },
  });
  const address = [
    client.address_street,
    [client.address_zip, client.address_city].filter(Boolean).join(' '),
    client.address_state,
    client.address_country_code?.toUpperCase(),
  ]
    .filter(Boolean)
    .join(', ');
  const details: Array<[string, string]> = [
    [t('clients.regCode'), client.reg_code ?? ''],
    [t('clients.vatCode'), client.vat_code ?? ''],
    [t('clients.address'), address],
    [t('clients.locale'), client.locale_code ?? ''],
    [t('clients.initials'), client.client_initials ?? ''],
    [t('clients.created'), dateTime(client.created_at)],
    [t('clients.updated'), dateTime(client.updated_at)],
  ];
  return (
    <>
      <Link href="/clients" className="back-link">
        ← {t('clients.backToList')}
      </Link>
      <PageHeader
        title={client.name}
        description={<Badge tone={STATUS_TONE[client.status]}>{t(statusLabel(client.status))}</Badge>}
        actions={
          <>
            <Button onPress={() => setEditing(true)}>{t('app.edit')}</Button>
            <Button variant="danger" onPress={() => setDeleting(true)}>
              {t('app.delete')}
            </Button>
          </>
        }
      />
      <Card title={t('clients.details')}>
        <dl className="detail-grid">
          {details.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value || t('app.none')}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <ClientContacts clientId={client.id} />
      {editing && <ClientFormDialog client={client} isOpen onOpenChange={setEditing} />}
      <ConfirmDialog
        title={t('clients.deleteTitle')}
        body={t('clients.deleteBody', { name: client.name })}
        confirmLabel={t('app.delete')}
        isOpen={deleting}
        onOpenChange={setDeleting}
        onConfirm={() => remove.mutate()}
        isPending={remove.isPending}
        error={remove.error ? <Alert>{describeError(remove.error, t).message}</Alert> : undefined}
      />
    </>
  );
}

const PAGE_SIZE = 25;

function ClientContacts({ clientId }: { clientId: number }) {
  const { t } = useI18n();
  const api = useApi();
  const [adding, setAdding] = useState(false);
  const pages = useCursorPages(String(clientId));
  const list = useQuery({
    queryKey: ['contacts', 'list', { client_id: clientId }, pages.cursor ?? null],
    queryFn: () =>
      api.contacts.listPage(
        pages.cursor
          ? { cursor: pages.cursor, limit: PAGE_SIZE }
          : { client_id: clientId, limit: PAGE_SIZE, sort: 'name' },
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <Card
      title={t('contacts.title')}
      actions={
        <Button size="sm" variant="primary" onPress={() => setAdding(true)}>
          {t('contacts.add')}
        </Button>
      }
    >
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <p className="muted">{t('contacts.emptyForClient')}</p>
      ) : (
        <div className="stack">
          <ContactsTable contacts={list.data.data} />
          <Pager
            page={pages.page}
            hasPrevious={pages.page > 1}
            hasNext={Boolean(list.data.meta.next_cursor)}
            onPrevious={pages.previous}
            onNext={() => pages.next(list.data.meta.next_cursor!)}
            isFetching={list.isFetching}
          />
        </div>
      )}
      <ContactFormDialog clientId={clientId} isOpen={adding} onOpenChange={setAdding} />
    </Card>
  );
}
