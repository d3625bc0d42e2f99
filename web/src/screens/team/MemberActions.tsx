import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { useApi, useSession } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { useNotify } from '../../ui/Notices.tsx';
import { Select } from '../../ui/Select.tsx';
import { Alert } from '../../ui/States.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { assignableRoles, memberName, type Member, type Role } from './teamTypes.ts';

/** An owner's or administrator's menu on one member: role, deactivate or reactivate, invite a placeholder. */
export function MemberActions({ member }: { member: Member }) {
  const t = useT();
  const api = useApi();
  const { membership } = useSession();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [dialog, setDialog] = useState<'role' | 'deactivate' | 'invite' | null>(null);
  const name = memberName(member);
  const self = member.person_id === membership?.person_id;
  // Only an owner touches owners (the API refuses it too; the menu does not offer it).
  const mayChange = !self && (member.role !== 'owner' || membership?.role === 'owner');
  const setStatus = useMutation({
    mutationFn: (status: 'active' | 'inactive') => api.members.update(member, { status }),
    onSuccess: async (_m, status) => {
      setDialog(null);
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      notify(status === 'inactive' ? t('team.deactivated', { name }) : t('team.reactivated', { name }));
    },
  });
  const items = [
    mayChange && member.status === 'active' && { id: 'role', label: t('team.changeRole') },
    mayChange && member.status === 'active' && { id: 'deactivate', label: t('team.deactivate') },
    mayChange && member.status === 'inactive' && { id: 'reactivate', label: t('team.reactivate') },
    member.status === 'limited' && { id: 'invite', label: t('team.inviteMember') },
  ].filter(Boolean) as Array<{ id: string; label: string }>;
  if (items.length === 0) return null;
  return (
    <>
      <MenuTrigger>
        <AriaButton className="btn btn-ghost btn-sm icon-button" aria-label={t('team.actionsFor', { name })}>
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <circle cx="4.5" cy="10" r="1.5" fill="currentColor" />
            <circle cx="10" cy="10" r="1.5" fill="currentColor" />
            <circle cx="15.5" cy="10" r="1.5" fill="currentColor" />
          </svg>
        </AriaButton>
        <Popover className="popover menu-popover" placement="bottom end">
          <Menu
            className="menu"
            items={items}
            onAction={(key) =>
              key === 'reactivate' ? setStatus.mutate('active') : setDialog(key as 'role' | 'deactivate' | 'invite')
            }
          >
            {(item) => (
              <MenuItem id={item.id} className="menu-item">
                {item.label}
              </MenuItem>
            )}
          </Menu>
        </Popover>
      </MenuTrigger>
      {setStatus.error && dialog !== 'deactivate' && <Alert>{describeError(setStatus.error, t).message}</Alert>}
      {dialog === 'role' && <RoleDialog member={member} onClose={() => setDialog(null)} />}
      {dialog === 'invite' && (
        <InviteDialog placeholder={member} isOpen onOpenChange={(open) => !open && setDialog(null)} />
      )}
      <ConfirmDialog
        title={t('team.deactivateTitle', { name })}
        body={t('team.deactivateBody', { name })}
        confirmLabel={t('team.deactivate')}
        isOpen={dialog === 'deactivate'}
        onOpenChange={(open) => !open && setDialog(null)}
        onConfirm={() => setStatus.mutate('inactive')}
        isPending={setStatus.isPending}
        error={setStatus.error ? <Alert>{describeError(setStatus.error, t).message}</Alert> : undefined}
      />
    </>
  );
}

function RoleDialog({ member, onClose }: { member: Member; onClose(): void }) {
  const t = useT();
  const api = useApi();
  const { membership } = useSession();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [role, setRole] = useState<Role>(member.role as Role);
  const name = memberName(member);
  const save = useMutation({
    mutationFn: () => api.members.update(member, { role }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      notify(t('team.roleSaved', { name, role: t(`roles.${role}`) }));
      onClose();
    },
  });
  return (
    <Dialog title={t('team.roleTitle', { name })} isOpen onOpenChange={(open) => !open && onClose()} size="sm">
      <div className="stack">
        <p className="muted">{t('team.roleHint')}</p>
        {save.error && <Alert>{describeError(save.error, t).message}</Alert>}
        <Select
          label={t('team.role')}
          options={assignableRoles(membership).map((r) => ({ id: r, label: t(`roles.${r}`) }))}
          selectedKey={role}
          onSelectionChange={(key) => setRole(key as Role)}
        />
        <div className="dialog-actions">
          <Button variant="ghost" onPress={onClose}>
            {t('app.cancel')}
          </Button>
          <Button
            variant="primary"
            isPending={save.isPending}
            isDisabled={role === member.role}
            onPress={() => save.mutate()}
          >
            {t('app.save')}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
