// The shell's navigation: one entry per screen, in order. `roles` limits an entry to those roles.
import type { MessageKey } from '../i18n/i18n.tsx';

export interface NavEntry {
  href: string;
  label: MessageKey;
  icon: keyof typeof ICONS;
  roles?: ReadonlyArray<'owner' | 'admin' | 'member'>;
}

export const ICONS = {
  clients: 'M4 5.5A2.5 2.5 0 0 1 6.5 3h7A2.5 2.5 0 0 1 16 5.5V17H4zM7 7h2m2 0h2M7 10h2m2 0h2M7 13h2m2 0h2M9 17v-2h2v2',
  contacts: 'M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-6 7c.6-3 3-4.5 6-4.5s5.4 1.5 6 4.5',
  calendar: 'M4 6a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2zM4 8.5h12M7.5 2.5v3m5-3v3',
  team: 'M7.5 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm-5 7c.5-2.6 2.4-4 5-4s4.5 1.4 5 4m1-7a2 2 0 1 0 0-4m1.5 7c1.6.4 2.6 1.6 3 4',
  profile: 'M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-6 7c.6-3 3-4.5 6-4.5s5.4 1.5 6 4.5',
} as const;

export const NAV: NavEntry[] = [
  { href: '/clients', label: 'nav.clients', icon: 'clients' },
  { href: '/contacts', label: 'nav.contacts', icon: 'contacts' },
  { href: '/calendar', label: 'nav.calendar', icon: 'calendar' },
  { href: '/team', label: 'nav.team', icon: 'team' },
  { href: '/profile', label: 'nav.profile', icon: 'profile' },
];
