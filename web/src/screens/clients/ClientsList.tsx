import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/session.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { SearchField } from '../../ui/Field.tsx';
import { CursorPager, useCursorPages } from '../../ui/Pager.tsx';
import { Select } from '../../ui/Select.tsx';
import { Badge, EmptyState, PageHeader, QueryView } from '../../ui/States.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { useDebounced } from '../../ui/useDebounced.ts';
import { ClientFormDialog } from './ClientForm.tsx';
import { CLIENT_STATUSES, STATUS_TONE, statusLabel } from './clientTypes.ts';

const PAGE_SIZE = 25;

/** The clients: search by name, filter by status, page by cursor; a row opens the client. */
export function ClientsList() {
  const { t, dateTime } = useI18n();
  const api = useApi();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const [creating, setCreating] = useState(false);
  const q = useDebounced(search.trim());
  const pages = useCursorPages(`${q}|${status}`);
  const filters = { ...(q ? { q } : {}), ...(status !== 'all' ? { status } : {}) };
  const list = useQuery({
    queryKey: ['clients', 'list', filters, pages.cursor ?? null],
    // A cursor carries the filters it was made with; the API takes it alone.
    queryFn: () =>
      api.clients.listPage(
        pages.cursor ? { cursor: pages.cursor, limit: PAGE_SIZE } : { ...filters, limit: PAGE_SIZE },
      ),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(q) || status !== 'all';
  const rows = list.data?.data ?? [];

  return (
    <>
      <PageHeader
        title={t('clients.title')}
        description={t('clients.description')}
        actions={
          <Button variant="primary" onPress={() => setCreating(true)}>
            {t('clients.new')}
          </Button>
        }
      />
      <div className="toolbar">
        <SearchField
          label={t('clients.search')}
          placeholder={t('clients.searchPlaceholder')}
          value={search}
          onChange={setSearch}
        />
        <Select
          label={t('clients.statusFilter')}
          options={[
            { id: 'all', label: t('status.all') },
            ...CLIENT_STATUSES.map((s) => ({ id: s, label: t(statusLabel(s)) })),
          ]}
          selectedKey={status}
          onSelectionChange={(key) => setStatus(String(key))}
          className="toolbar-select"
        />
      </div>
      <QueryView
        query={list}
        isEmpty={rows.length === 0}
        empty={
          filtered ? (
            <EmptyState title={t('clients.noMatchesTitle')} body={t('clients.noMatchesBody')} />
          ) : (
            <EmptyState
              title={t('clients.emptyTitle')}
              body={t('clients.emptyBody')}
              action={
                <Button variant="primary" onPress={() => setCreating(true)}>
                  {t('clients.new')}
                </Button>
              }
            />
          )
        }
      >
        <>
          <Table label={t('clients.tableLabel')}>
            <TableHeader>
              <Column isRowHeader>{t('clients.name')}</Column>
              <Column>{t('clients.status')}</Column>
              <Column hideNarrow>{t('clients.city')}</Column>
              <Column hideNarrow>{t('clients.regCode')}</Column>
              <Column hideNarrow>{t('clients.updated')}</Column>
            </TableHeader>
            <TableBody items={rows} dependencies={[t, dateTime]}>
              {(client) => (
                <Row id={client.id} href={`/clients/${client.id}`} textValue={client.name}>
                  <Cell>
                    <span className="strong">{client.name}</span>
                  </Cell>
                  <Cell>
                    <Badge tone={STATUS_TONE[client.status]}>{t(statusLabel(client.status))}</Badge>
                  </Cell>
                  <Cell hideNarrow>{client.address_city ?? ''}</Cell>
                  <Cell hideNarrow>{client.reg_code ?? ''}</Cell>
                  <Cell hideNarrow>{dateTime(client.updated_at)}</Cell>
                </Row>
              )}
            </TableBody>
          </Table>
          <CursorPager pages={pages} list={list} />
        </>
      </QueryView>
      <ClientFormDialog isOpen={creating} onOpenChange={setCreating} />
    </>
  );
}
