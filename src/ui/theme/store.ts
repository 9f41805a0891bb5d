// The theme in the browser: the preference in localStorage, the system's scheme from
// matchMedia, and the one PrimeReact theme stylesheet in force. PrimeReact's light and dark themes
// style the same selectors, so exactly one is in the document: a <style> whose text is swapped
// (each theme is its own lazy chunk, loaded the first time it is shown). public/theme-init.js has
// already marked <html> before the first paint; applyTheme() keeps that mark in step.
import { useSyncExternalStore } from 'react';
import { THEME_STORAGE_KEY, effectiveTheme, parseThemePreference, toggledPreference, type Theme, type ThemePreference } from '../../domain/theme';

const LOADERS: Record<Theme, () => Promise<{ default: string }>> = {
  light: () => import('primereact/resources/themes/lara-light-blue/theme.css?inline'),
  dark: () => import('primereact/resources/themes/lara-dark-blue/theme.css?inline'),
};

const STYLE_ID = 'primereact-theme';
const listeners = new Set<() => void>();
let shown: Theme = 'light';

function systemQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
}

function storedPreference(): ThemePreference {
  try {
    return parseThemePreference(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

function wanted(): Theme {
  return effectiveTheme(storedPreference(), systemQuery()?.matches ?? false);
}

/** Puts `theme` in force: the <html> mark first (the portal's own colours), then PrimeReact's sheet. */
async function show(theme: Theme): Promise<void> {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  shown = theme;
  listeners.forEach((listener) => listener());
  const { default: css } = await LOADERS[theme]();
  // A later switch may have overtaken this one while its sheet loaded.
  if (shown !== theme) return;
  let style = document.getElementById(STYLE_ID);
  if (!style) {
    style = document.createElement('style');
    style.id = STYLE_ID;
    // First in <head>: the portal's own stylesheets come after it and refine it.
    document.head.prepend(style);
  }
  style.textContent = css;
}

/**
 * Called once before the first render; from then on the theme follows the system's changes, until
 * the function it answers is called.
 */
export async function startTheme(): Promise<() => void> {
  const query = systemQuery();
  const follow = () => void show(wanted());
  query?.addEventListener('change', follow);
  await show(wanted());
  return () => query?.removeEventListener('change', follow);
}

export function toggleTheme(): Promise<void> {
  const next = toggledPreference(storedPreference(), systemQuery()?.matches ?? false);
  try {
    if (next === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Storage refused (private mode): the switch still holds for this page.
    return show(next === 'system' ? wanted() : next);
  }
  return show(wanted());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The theme shown now, re-rendering on each change. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, () => shown, () => 'light');
}
