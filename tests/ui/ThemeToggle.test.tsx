// The theme switch: it follows the system's scheme until pressed, flips what is shown, remembers
// a pick that differs from the system, and forgets one that equals it; PrimeReact's theme sheet
// is the one <style> in force.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { THEME_STORAGE_KEY, THEME_TEXTS } from '../../src/domain/theme';
import { ThemeToggle } from '../../src/ui/theme/ThemeToggle';
import { startTheme } from '../../src/ui/theme/store';
import { renderStrict } from './render';

function systemPrefers(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('the theme toggle', () => {
  it('starts from the system, flips on each press, and stores only a pick that differs from the system', async () => {
    localStorage.clear();
    systemPrefers(true);
    await startTheme();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.getElementById('primereact-theme')).not.toBeNull();
    const { user } = renderStrict(<ThemeToggle />);

    await user.click(screen.getByRole('button', { name: THEME_TEXTS.toLight }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(document.documentElement.style.colorScheme).toBe('light');

    await user.click(screen.getByRole('button', { name: THEME_TEXTS.toDark }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    // Dark is what the system asks for: the portal follows the system again.
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: THEME_TEXTS.toLight })).toBeTruthy();
    expect(document.querySelectorAll('#primereact-theme')).toHaveLength(1);
  });

  it('keeps a stored pick over the system at start', async () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    systemPrefers(true);
    await startTheme();
    expect(document.documentElement.dataset.theme).toBe('light');
    renderStrict(<ThemeToggle />);
    expect(screen.getByRole('button', { name: THEME_TEXTS.toDark })).toBeTruthy();
    localStorage.clear();
  });
});
