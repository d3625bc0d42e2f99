import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n.tsx';

/** The frame of the screens before sign-in: the product's mark and one card in the middle of the page. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <div className="auth-page">
      <main className="auth-card" id="main">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>{t('app.name')}</span>
        </div>
        <h1>{title}</h1>
        {subtitle && <p className="muted auth-subtitle">{subtitle}</p>}
        {children}
      </main>
    </div>
  );
}

/** A path inside this application to go on to after signing in; anything else (another site) is ignored. */
export function safeNext(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}
