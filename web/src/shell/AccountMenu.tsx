import {
  Button as AriaButton,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
} from 'react-aria-components';
import { useLocation } from 'wouter';
import { useSession } from '../api/session.tsx';
import { useT } from '../i18n/i18n.tsx';
import { applyTheme, storedTheme, type ThemeChoice } from './theme.ts';
import { useState } from 'react';

/** The account's menu: who is signed in, the company switcher, the theme, profile and sign out. */
export function AccountMenu() {
  const t = useT();
  const { session, membership, chooseCompany, signOut } = useSession();
  const [, navigate] = useLocation();
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);
  const companies = session?.companies ?? [];
  const onAction = (key: React.Key) => {
    const value = String(key);
    if (value.startsWith('company:')) {
      chooseCompany(value.slice('company:'.length));
      navigate('/');
    } else if (value.startsWith('theme:')) {
      const choice = value.slice('theme:'.length) as ThemeChoice;
      applyTheme(choice);
      setTheme(choice);
    } else if (value === 'profile') navigate('/profile');
    else if (value === 'sign-out') void signOut();
  };
  const initials = (session?.account.email ?? '?').slice(0, 1).toUpperCase();
  return (
    <MenuTrigger>
      <AriaButton className="account-button" aria-label={t('account.menu')}>
        <span className="avatar" aria-hidden="true">
          {initials}
        </span>
        <span className="account-email">{session?.account.email}</span>
      </AriaButton>
      <Popover className="popover menu-popover" placement="bottom end">
        <Menu className="menu" onAction={onAction}>
          {companies.length > 1 && (
            <MenuSection className="menu-section">
              <Header className="menu-header">{t('account.switchCompany')}</Header>
              {companies.map((c) => (
                <MenuItem key={c.id} id={`company:${c.id}`} className="menu-item" textValue={c.name}>
                  <span>{c.name}</span>
                  {c.id === membership?.id && (
                    <span className="menu-check" aria-label={t('account.current')}>
                      ✓
                    </span>
                  )}
                </MenuItem>
              ))}
            </MenuSection>
          )}
          {companies.length > 1 && <Separator className="menu-separator" />}
          <MenuSection className="menu-section">
            <Header className="menu-header">{t('theme.label')}</Header>
            {(['system', 'light', 'dark'] as const).map((choice) => (
              <MenuItem key={choice} id={`theme:${choice}`} className="menu-item" textValue={t(`theme.${choice}`)}>
                <span>{t(`theme.${choice}`)}</span>
                {choice === theme && (
                  <span className="menu-check" aria-label={t('account.current')}>
                    ✓
                  </span>
                )}
              </MenuItem>
            ))}
          </MenuSection>
          <Separator className="menu-separator" />
          <MenuItem id="profile" className="menu-item">
            {t('nav.profile')}
          </MenuItem>
          <MenuItem id="sign-out" className="menu-item">
            {t('account.signOut')}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
