import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { useApi } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Alert, Badge } from '../../ui/States.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { ContactFormDialog } from './ContactForm.tsx';
import { fullName, type Contact } from './contactTypes.ts';

/** Contacts with their e-mail and phone, and a menu per row to edit or delete; optionally their client's name. */
export function ContactsTable({ contacts, clientNames }: { contacts: Contact[]; clientNames?: Map<number, string> }) {
  const t = useT();
  const api = useApi();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Contact | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const remove = useMutation({
    mutationFn: (contact: Contact) => api.contacts.delete(contact),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ['contacts'] });
      await queryClient.invalidateQueries({ queryKey: ['clients', 'one'] });
    },
  });
  return (
    <>
      <Table label={t('contacts.tableLabel')}>
        <TableHeader>
          <Column isRowHeader>{t('contacts.fullName')}</Column>
          <Column>{t('contacts.email')}</Column>
          {clientNames ? (
            <Column hideNarrow>{t('contacts.client')}</Column>
          ) : (
            <Column hideNarrow>{t('contacts.jobTitle')}</Column>
          )}
          <Column hideNarrow>{t('contacts.mobile')}</Column>
          <Column>
            <span className="visually-hidden">{t('app.edit')}</span>
          </Column>
        </TableHeader>
        <TableBody items={contacts} dependencies={[clientNames, t]}>
          {(contact) => (
            <Row id={contact.id} textValue={fullName(contact)}>
              <Cell>
                <span className="strong">{fullName(contact)}</span>{' '}
                {contact.is_primary === 1 && <Badge tone="accent">{t('contacts.primaryBadge')}</Badge>}
              </Cell>
              <Cell>{contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : ''}</Cell>
              <Cell hideNarrow>
                {clientNames ? (clientNames.get(contact.client_id) ?? '') : (contact.job_title ?? '')}
              </Cell>
              <Cell hideNarrow>{contact.mobile_phone ?? contact.work_phone ?? ''}</Cell>
              <Cell>
                <MenuTrigger>
                  <AriaButton
                    className="btn btn-ghost btn-sm icon-button"
                    aria-label={t('contacts.actionsFor', { name: fullName(contact) })}
                  >
                    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
                      <circle cx="4.5" cy="10" r="1.5" fill="currentColor" />
                      <circle cx="10" cy="10" r="1.5" fill="currentColor" />
                      <circle cx="15.5" cy="10" r="1.5" fill="currentColor" />
                    </svg>
                  </AriaButton>
                  <Popover className="popover menu-popover" placement="bottom end">
                    <Menu
                      className="menu"
                      onAction={(key) => (key === 'edit' ? setEditing(contact) : setDeleting(contact))}
                    >
                      <MenuItem id="edit" className="menu-item">
                        {t('app.edit')}
                      </MenuItem>
                      <MenuItem id="delete" className="menu-item">
                        {t('app.delete')}
                      </MenuItem>
                    </Menu>
                  </Popover>
                </MenuTrigger>
              </Cell>
            </Row>
          )}
        </TableBody>
      </Table>
      {editing && <ContactFormDialog contact={editing} isOpen onOpenChange={(open) => !open && setEditing(null)} />}
      <ConfirmDialog
        title={t('contacts.deleteTitle')}
        body={t('contacts.deleteBody', { name: deleting ? fullName(deleting) : '' })}
        confirmLabel={t('app.delete')}
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
        isPending={remove.isPending}
        error={remove.error ? <Alert>{describeError(remove.error, t).message}</Alert> : undefined}
      />
    </>
  );
}
