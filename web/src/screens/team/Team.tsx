import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useSession } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { SearchField } from '../../ui/Field.tsx';
import { CursorPager, useCursorPages } from '../../ui/Pager.tsx';
import { Badge, EmptyState, PageHeader, QueryView } from '../../ui/States.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { useDebounced } from '../../ui/useDebounced.ts';
import { InviteDialog } from './InviteDialog.tsx';
import { Invitations } from './Invitations.tsx';
import { MemberActions } from './MemberActions.tsx';
import { isManager, memberName, STATUS_TONE } from './teamTypes.ts';

const PAGE_SIZE = 50;

/** The company's members; owners and administrators also invite, change roles and (de)activate. */
export function Team() {
  const t = useT();
  const api = useApi();
  const { membership } = useSession();
  const manager = isManager(membership);
  const [search, setSearch] = useState('');
  const [inviting, setInviting] = useState(false);
  const q = useDebounced(search.trim());
  const pages = useCursorPages(q);
  const list = useQuery({
    queryKey: ['members', 'list', { q }, pages.cursor ?? null],
    queryFn: () =>
      api.members.listPage(
        pages.cursor ? { cursor: pages.cursor, limit: PAGE_SIZE } : { ...(q ? { q } : {}), limit: PAGE_SIZE },
      ),
    placeholderData: keepPreviousData,
  });
  const members = list.data?.data ?? [];
  return (
    <>
      <PageHeader
        title={t('team.title')}
        description={t('team.description')}
        actions={
          manager && (
            <Button variant="primary" onPress={() => setInviting(true)}>
              {t('team.invite')}
            </Button>
          )
        }
      />
      <div className="toolbar">
        <SearchField
          label={t('team.search')}
          placeholder={t('team.searchPlaceholder')}
          value={search}
          onChange={setSearch}
        />
      </div>
      <QueryView query={list} isEmpty={members.length === 0} empty={<EmptyState title={t('team.emptyTitle')} />}>
        <>
          <Table label={t('team.tableLabel')}>
            <TableHeader>
              <Column isRowHeader>{t('team.name')}</Column>
              <Column hideNarrow>{t('team.email')}</Column>
              <Column>{t('team.role')}</Column>
              <Column>{t('team.status')}</Column>
              <Column>
                <span className="visually-hidden">{t('team.changeRole')}</span>
              </Column>
            </TableHeader>
            <TableBody items={members} dependencies={[membership, manager, t]}>
              {(member) => (
                <Row id={member.id} textValue={memberName(member)}>
                  <Cell>
                    <span className="strong">{memberName(member)}</span>
                    {member.person_id === membership?.person_id && <span className="muted"> ({t('team.you')})</span>}
                  </Cell>
                  <Cell hideNarrow>{member.email ?? ''}</Cell>
                  <Cell>{t(`roles.${member.role}`)}</Cell>
                  <Cell>
                    <Badge tone={STATUS_TONE[member.status] ?? 'neutral'}>{t(`status.${member.status}`)}</Badge>
                  </Cell>
                  <Cell>{manager ? <MemberActions member={member} /> : null}</Cell>
                </Row>
              )}
            </TableBody>
          </Table>
          <CursorPager pages={pages} list={list} />
        </>
      </QueryView>
      {manager && <Invitations />}
      <InviteDialog isOpen={inviting} onOpenChange={setInviting} />
    </>
  );
}
