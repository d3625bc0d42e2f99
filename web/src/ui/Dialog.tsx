import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../i18n/i18n.tsx';
import { Button } from './Button.tsx';

export interface DialogProps {
  title: string;
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  children: ReactNode;
  /** 'alertdialog' for confirmations that need an answer. */
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md';
}

/** A modal dialog: focus moves in and is trapped, Escape and the backdrop close it, focus returns on close. */
export function Dialog({ title, isOpen, onOpenChange, children, role = 'dialog', size = 'md' }: DialogProps) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable>
      <Modal className={`modal modal-${size}`}>
        <AriaDialog role={role} className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  isOpen,
  onOpenChange,
  onConfirm,
  isPending,
  error,
}: {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  onConfirm(): void;
  isPending?: boolean;
  error?: ReactNode;
}) {
  const t = useT();
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={onOpenChange} role="alertdialog" size="sm">
      <div className="stack">
        <p>{body}</p>
        {error}
        <div className="dialog-actions">
          <Button variant="ghost" onPress={() => onOpenChange(false)}>
            {t('app.cancel')}
          </Button>
          <Button variant="danger" onPress={onConfirm} isPending={isPending} autoFocus>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
