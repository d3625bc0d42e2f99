// Light, dark, or the system's choice (the default). The choice is kept in this browser only.
export type ThemeChoice = 'light' | 'dark' | 'system';
const KEY = 'svc.theme';
const media = () => window.matchMedia('(prefers-color-scheme: dark)');

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

let following: (() => void) | undefined;

export function applyTheme(choice: ThemeChoice): void {
  const set = () => {
    const dark = choice === 'dark' || (choice === 'system' && media().matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  };
  following?.();
  following = undefined;
  if (choice === 'system') {
    const query = media();
    query.addEventListener('change', set);
    following = () => query.removeEventListener('change', set);
  }
  set();
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}
