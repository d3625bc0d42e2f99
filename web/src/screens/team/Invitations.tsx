import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../api/errors.ts';
import { useApi } from '../../api/session.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Alert, Card, ErrorState, Loading } from '../../ui/States.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import type { Invitation } from './teamTypes.ts';

/** The invitations nobody has answered yet, with resend and cancel (owners and admins only). */
export function Invitations() {
  const { t, dateTime } = useI18n();
  const api = useApi();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const list = useQuery({
    queryKey: ['invitations', 'pending'],
    queryFn: async () =>
      (
        (await (await api.request('GET', '/invitations', { query: { status: 'pending', limit: 200 } })).json()) as {
          data: Invitation[];
        }
      ).data,
  });
  const act = useMutation({
    mutationFn: async ({ invitation, action }: { invitation: Invitation; action: 'resend' | 'cancel' }) => {
      if (action === 'resend') await api.request('POST', `/invitations/${invitation.id}/resend`);
      else await api.request('DELETE', `/invitations/${invitation.id}`);
    },
    onSuccess: async (_none, { invitation, action }) => {
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      notify(
        action === 'resend'
          ? t('team.resent', { email: invitation.email })
          : t('team.cancelled', { email: invitation.email }),
      );
    },
  });
  return (
    <Card title={t('team.invitations')}>
      {act.error && <Alert>{describeError(act.error, t).message}</Alert>}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">{t('team.noInvitations')}</p>
      ) : (
        <Table label={t('team.invitationsLabel')}>
          <TableHeader>
            <Column isRowHeader>{t('team.email')}</Column>
            <Column>{t('team.role')}</Column>
            <Column hideNarrow>{t('team.invitedAt')}</Column>
            <Column hideNarrow>{t('team.expiresAt')}</Column>
            <Column>
              <span className="visually-hidden">{t('team.resend')}</span>
            </Column>
          </TableHeader>
          <TableBody items={list.data} dependencies={[t, dateTime]}>
            {(invitation) => (
              <Row id={invitation.id} textValue={invitation.email}>
                <Cell>{invitation.email}</Cell>
                <Cell>{t(`roles.${invitation.role}`)}</Cell>
                <Cell hideNarrow>{dateTime(invitation.created_at)}</Cell>
                <Cell hideNarrow>{dateTime(invitation.expires_at)}</Cell>
                <Cell>
                  <div className="row">
                    <Button
                      size="sm"
                      aria-label={t('team.resendFor', { email: invitation.email })}
                      onPress={() => act.mutate({ invitation, action: 'resend' })}
                    >
                      {t('team.resend')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('team.cancelFor', { email: invitation.email })}
                      onPress={() => act.mutate({ invitation, action: 'cancel' })}
                    >
                      {t('team.cancelInvitation')}
                    </Button>
                  </div>
                </Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
