import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-aria-components';
import { useLocation } from 'wouter';
import { useSession } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { Button } from '../ui/Button.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { Icon } from './Icon.tsx';
import { NAV } from './nav.ts';

/** The frame of every signed-in screen: navigation (a drawer on narrow screens), the top bar, the content. */
export function AppShell({ children }: { children: ReactNode }) {
  const t = useT();
  const [location] = useLocation();
  const { membership } = useSession();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [location]);
  const entries = NAV.filter((entry) => !entry.roles || (membership && entry.roles.includes(membership.role)));
  return (
    <div className={`shell${open ? ' shell-nav-open' : ''}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <aside className="sidebar" id="sidebar">
        <div className="sidebar-brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>{t('app.name')}</span>
        </div>
        <nav aria-label={t('nav.main')}>
          <ul className="nav-list">
            {entries.map((entry) => {
              const current = location === entry.href || location.startsWith(`${entry.href}/`);
              return (
                <li key={entry.href}>
                  <Link href={entry.href} className="nav-link" aria-current={current ? 'page' : undefined}>
                    <Icon name={entry.icon} />
                    <span>{t(entry.label)}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </aside>
      <div className="shell-main">
        <header className="topbar">
          <Button
            variant="ghost"
            className="nav-toggle"
            aria-expanded={open}
            aria-controls="sidebar"
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            onPress={() => setOpen(!open)}
          >
            <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
              <path d="M3 5.5h14M3 10h14M3 14.5h14" stroke="currentColor" strokeWidth="1.6" />
            </svg>
          </Button>
          <span className="topbar-company">{membership?.name}</span>
          <span className="spacer" />
          <AccountMenu />
        </header>
        <main className="content" id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
      {open && <div className="nav-backdrop" onClick={() => setOpen(false)} aria-hidden="true" />}
    </div>
  );
}
