import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { SearchField } from '../../ui/Field.tsx';
import { CursorPager, useCursorPages } from '../../ui/Pager.tsx';
import { EmptyState, PageHeader, QueryView } from '../../ui/States.tsx';
import { useDebounced } from '../../ui/useDebounced.ts';
import { ContactFormDialog } from './ContactForm.tsx';
import { ContactsTable } from './ContactsTable.tsx';

const PAGE_SIZE = 25;

/** Every contact of the company, searchable, with the client each belongs to. */
export function ContactsList() {
  const t = useT();
  const api = useApi();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const q = useDebounced(search.trim());
  const pages = useCursorPages(q);
  const list = useQuery({
    queryKey: ['contacts', 'list', { q }, pages.cursor ?? null],
    queryFn: () =>
      api.contacts.listPage(
        pages.cursor ? { cursor: pages.cursor, limit: PAGE_SIZE } : { ...(q ? { q } : {}), limit: PAGE_SIZE },
      ),
    placeholderData: keepPreviousData,
  });
  const contacts = list.data?.data ?? [];
  // The clients of this page, each asked once and cached (a contact names its client by id only).
  const clientIds = [...new Set(contacts.map((c) => c.client_id))];
  const clients = useQueries({
    queries: clientIds.map((id) => ({
      queryKey: ['clients', 'one', id],
      queryFn: () => api.clients.get(id),
      staleTime: 60_000,
    })),
  });
  const clientNames = new Map(clients.flatMap((c) => (c.data ? [[c.data.id, c.data.name] as const] : [])));

  return (
    <>
      <PageHeader
        title={t('contacts.title')}
        description={t('contacts.description')}
        actions={
          <Button variant="primary" onPress={() => setCreating(true)}>
            {t('contacts.new')}
          </Button>
        }
      />
      <div className="toolbar">
        <SearchField
          label={t('contacts.search')}
          placeholder={t('contacts.searchPlaceholder')}
          value={search}
          onChange={setSearch}
        />
      </div>
      <QueryView
        query={list}
        isEmpty={contacts.length === 0}
        empty={
          q ? (
            <EmptyState title={t('contacts.noMatchesTitle')} body={t('contacts.noMatchesBody')} />
          ) : (
            <EmptyState title={t('contacts.emptyTitle')} body={t('contacts.emptyBody')} />
          )
        }
      >
        <>
          <ContactsTable contacts={contacts} clientNames={clientNames} />
          <CursorPager pages={pages} list={list} />
        </>
      </QueryView>
      <ContactFormDialog isOpen={creating} onOpenChange={setCreating} />
    </>
  );
}
