import type { ReactNode } from 'react';
import { describeError } from '../api/errors.ts';
import { useT } from '../i18n/i18n.tsx';
import { Button } from './Button.tsx';
import { Spinner } from './Spinner.tsx';

/** A region that is loading: announced once to screen readers, shown as a spinner and a line of text. */
export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <Spinner />
      <span>{label ?? t('app.loading')}</span>
    </div>
  );
}

export function EmptyState({ title, body, action }: { title: string; body?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty">
      <div className="state-illustration" aria-hidden="true">
        <svg viewBox="0 0 48 48" width="48" height="48">
          <rect x="8" y="12" width="32" height="26" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M8 20h32M16 8v8M32 8v8" stroke="currentColor" strokeWidth="2" />
        </svg>
      </div>
      <h2>{title}</h2>
      {body && <p className="muted">{body}</p>}
      {action}
    </div>
  );
}

/** An error in words: the API's message and, for support, its code; with a retry when one can help. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT();
  const { message, code } = describeError(error, t);
  return (
    <div className="state state-error" role="alert">
      <h2>{t('app.errorTitle')}</h2>
      <p>{message}</p>
      {code && <p className="muted mono">{t('app.errorCode', { code })}</p>}
      {onRetry && <Button onPress={onRetry}>{t('app.retry')}</Button>}
    </div>
  );
}

export function Alert({
  tone = 'danger',
  children,
  live = 'assertive',
}: {
  tone?: 'danger' | 'success' | 'info' | 'warning';
  children: ReactNode;
  live?: 'assertive' | 'polite';
}) {
  return (
    <div className={`alert alert-${tone}`} role={live === 'assertive' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'accent' | 'success' | 'warning' | 'danger';
  children: ReactNode;
}) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div className="page-header-text">
        <h1>{title}</h1>
        {description && <p className="muted">{description}</p>}
      </div>
      {actions && <div className="page-header-actions">{actions}</div>}
    </header>
  );
}

export function Card({ title, actions, children }: { title?: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      {(title || actions) && (
        <div className="card-header">
          {title && <h2>{title}</h2>}
          {actions && <div className="row">{actions}</div>}
        </div>
      )}
      <div className="card-body">{children}</div>
    </section>
  );
}

/** What a list or record screen shows for its query: loading, the error with a retry, `empty`, or the content. */
export function QueryView({
  query,
  isEmpty = false,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch(): unknown };
  isEmpty?: boolean;
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return <>{isEmpty ? empty : children}</>;
}
