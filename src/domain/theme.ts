// Light or dark: the portal follows the operating system until the user picks one with the
// toggle, and goes back to following it when the pick equals what the system asks for (so a
// user who toggles twice is not left pinned to one theme). Pure rules; the browser side is
// src/ui/theme/store.ts, and public/theme-init.js applies the same rule before the first paint.

export type Theme = 'light' | 'dark';
export type ThemePreference = Theme | 'system';

/** localStorage key, shared with public/theme-init.js. */
export const THEME_STORAGE_KEY = 'portal.theme';

export const THEME_TEXTS = {
  toDark: 'Switch to the dark theme',
  toLight: 'Switch to the light theme',
} as const;

export function parseThemePreference(raw: string | null | undefined): ThemePreference {
  return raw === 'light' || raw === 'dark' ? raw : 'system';
}

export function effectiveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/** The preference to store after the toggle flips the theme now shown. */
export function toggledPreference(preference: ThemePreference, systemPrefersDark: boolean): ThemePreference {
  const next: Theme = effectiveTheme(preference, systemPrefersDark) === 'dark' ? 'light' : 'dark';
  return next === effectiveTheme('system', systemPrefersDark) ? 'system' : next;
}
