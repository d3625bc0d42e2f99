import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { useApi, useSession } from '../../api/session.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Alert, Badge, Card, EmptyState, ErrorState, Loading, PageHeader, QueryView } from '../../ui/States.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { isManager, memberName } from '../team/teamTypes.ts';
import { RequestDialog } from './RequestDialog.tsx';
import {
  APPROVED_IN_WEB,
  dayCount,
  monthRange,
  shiftMonth,
  STATUS_LABEL,
  STATUS_TONE,
  TYPE_LABEL,
  type Entry,
  type EntryType,
} from './calendarTypes.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** People's names by person id (the calendar names people by id only). */
function usePeople() {
  const api = useApi();
  const members = useQuery({
    queryKey: ['members', 'names'],
    queryFn: () => api.members.listPage({ limit: 200 }),
    staleTime: 60_000,
  });
  return useMemo(() => new Map((members.data?.data ?? []).map((m) => [m.person_id, memberName(m)])), [members.data]);
}

/** A month of entries, the member's requests, and for owners and administrators the approvals waiting. */
export function Calendar() {
  const { t, locale } = useI18n();
  const api = useApi();
  const { membership } = useSession();
  const people = usePeople();
  const [month, setMonth] = useState(() => today().slice(0, 7));
  const [requesting, setRequesting] = useState(false);
  const range = monthRange(month);
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${range.from}T00:00:00Z`),
  );
  const list = useQuery({
    queryKey: ['calendar', 'month', month],
    queryFn: () =>
      api.calendar.listPage({
        date_from: range.from,
        date_until: range.until,
        scope: 'all',
        limit: 200,
        sort: 'date_from',
      }),
    placeholderData: keepPreviousData,
  });
  const entries = list.data?.data ?? [];
  return (
    <>
      <PageHeader
        title={t('calendar.title')}
        description={t('calendar.description')}
        actions={
          <Button variant="primary" onPress={() => setRequesting(true)}>
            {t('calendar.new')}
          </Button>
        }
      />
      {isManager(membership) && <Approvals people={people} />}
      <div className="toolbar month-bar">
        <Button size="sm" aria-label={t('calendar.previousMonth')} onPress={() => setMonth(shiftMonth(month, -1))}>
          ←
        </Button>
        <h2 className="month-title" aria-live="polite">
          {monthName}
        </h2>
        <Button size="sm" aria-label={t('calendar.nextMonth')} onPress={() => setMonth(shiftMonth(month, 1))}>
          →
        </Button>
        <Button size="sm" variant="ghost" onPress={() => setMonth(today().slice(0, 7))}>
          {t('calendar.thisMonth')}
        </Button>
      </div>
      <QueryView
        query={list}
        isEmpty={entries.length === 0}
        empty={<EmptyState title={t('calendar.emptyTitle', { month: monthName })} body={t('calendar.emptyBody')} />}
      >
        <EntryTable entries={entries} people={people} label={t('calendar.tableLabel', { month: monthName })} />
      </QueryView>
      <RequestDialog isOpen={requesting} onOpenChange={setRequesting} defaultDate={today()} />
    </>
  );
}

function EntryTable({
  entries,
  people,
  label,
  actions,
}: {
  entries: Entry[];
  people: Map<number, string>;
  label: string;
  actions?: (entry: Entry) => React.ReactNode;
}) {
  const { t, date } = useI18n();
  return (
    <Table label={label}>
      <TableHeader>
        <Column isRowHeader>{t('calendar.person')}</Column>
        <Column>{t('calendar.type')}</Column>
        <Column>{t('calendar.from')}</Column>
        <Column hideNarrow>{t('calendar.until')}</Column>
        <Column hideNarrow>{t('calendar.days')}</Column>
        <Column>{t('calendar.status')}</Column>
        {actions ? (
          <Column>
            <span className="visually-hidden">{t('calendar.approve')}</span>
          </Column>
        ) : (
          <Column hideNarrow>{t('calendar.note')}</Column>
        )}
      </TableHeader>
      <TableBody items={entries} dependencies={[people, actions, t, date]}>
        {(entry) => (
          <Row id={entry.id} textValue={`${entry.type} ${entry.date_from}`}>
            <Cell>
              {entry.person_id === null
                ? (entry.description ?? '')
                : (people.get(entry.person_id) ?? `#${entry.person_id}`)}
            </Cell>
            <Cell>{t(TYPE_LABEL[entry.type as EntryType])}</Cell>
            <Cell>{date(`${entry.date_from}T12:00:00Z`)}</Cell>
            <Cell hideNarrow>{date(`${entry.date_until}T12:00:00Z`)}</Cell>
            <Cell hideNarrow>{dayCount(entry.date_from, entry.date_until)}</Cell>
            <Cell>
              <Badge tone={STATUS_TONE[entry.status] ?? 'accent'}>
                {t(STATUS_LABEL[entry.status] ?? 'calendar.statusInReview')}
              </Badge>
            </Cell>
            {actions ? (
              <Cell>{actions(entry)}</Cell>
            ) : (
              <Cell hideNarrow>{entry.person_id === null ? '' : (entry.description ?? '')}</Cell>
            )}
          </Row>
        )}
      </TableBody>
    </Table>
  );
}

/** Vacation and flextime of other people, waiting: approve or reject (web only; keys get CALENDAR_APPROVAL_UI_ONLY). */
function Approvals({ people }: { people: Map<number, string> }) {
  const { t, date } = useI18n();
  const api = useApi();
  const { membership } = useSession();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const waiting = useQuery({
    queryKey: ['calendar', 'waiting'],
    queryFn: () => api.calendar.listPage({ status: 'in_review', limit: 200, sort: 'date_from' }),
  });
  const decide = useMutation({
    mutationFn: ({ entry, status }: { entry: Entry; status: 'approved' | 'rejected' }) =>
      api.calendar.update(entry, { status } as Parameters<typeof api.calendar.update>[1]),
    onSuccess: async (_e, { status }) => {
      await queryClient.invalidateQueries({ queryKey: ['calendar'] });
      notify(status === 'approved' ? t('calendar.approved') : t('calendar.rejected'));
    },
  });
  const entries = (waiting.data?.data ?? []).filter(
    (e) => APPROVED_IN_WEB.has(e.type) && e.person_id !== membership?.person_id,
  );
  const describe = (entry: Entry) => ({
    type: t(TYPE_LABEL[entry.type as EntryType]),
    name: people.get(entry.person_id ?? 0) ?? '',
    from: date(`${entry.date_from}T12:00:00Z`),
  });
  return (
    <Card title={t('calendar.approvals')}>
      {decide.error && <Alert>{describeError(decide.error, t).message}</Alert>}
      {waiting.isPending ? (
        <Loading />
      ) : waiting.isError ? (
        <ErrorState error={waiting.error} onRetry={() => void waiting.refetch()} />
      ) : entries.length === 0 ? (
        <p className="muted">{t('calendar.noApprovals')}</p>
      ) : (
        <EntryTable
          entries={entries}
          people={people}
          label={t('calendar.approvalsLabel')}
          actions={(entry) => (
            <div className="row">
              <Button
                size="sm"
                variant="primary"
                aria-label={t('calendar.approveFor', describe(entry))}
                onPress={() => decide.mutate({ entry, status: 'approved' })}
              >
                {t('calendar.approve')}
              </Button>
              <Button
                size="sm"
                aria-label={t('calendar.rejectFor', describe(entry))}
                onPress={() => decide.mutate({ entry, status: 'rejected' })}
              >
                {t('calendar.reject')}
              </Button>
            </div>
          )}
        />
      )}
    </Card>
  );
}
