import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { effectiveTheme, parseThemePreference, toggledPreference } from '../../src/domain/theme';
import { LARA_LIGHT_SHIFT, contrastRatio, shiftLaraLight } from '../../src/ui/theme/contrast';

const laraLight = readFileSync(createRequire(import.meta.url).resolve('primereact/resources/themes/lara-light-blue/theme.css'), 'utf8');

describe('the theme preference', () => {
  it('follows the system until one is picked, and reads anything unknown as following the system', () => {
    expect(effectiveTheme('system', true)).toBe('dark');
    expect(effectiveTheme('system', false)).toBe('light');
    expect(effectiveTheme('light', true)).toBe('light');
    expect(effectiveTheme('dark', false)).toBe('dark');
    expect(parseThemePreference('dark')).toBe('dark');
    expect(parseThemePreference('light')).toBe('light');
    for (const raw of [null, undefined, '', 'DARK', 'system', 'blue']) expect(parseThemePreference(raw)).toBe('system');
  });

  it('flips what is shown, and goes back to following the system when the pick equals it', () => {
    for (const systemDark of [true, false]) {
      for (const preference of ['system', 'light', 'dark'] as const) {
        const before = effectiveTheme(preference, systemDark);
        const after = toggledPreference(preference, systemDark);
        expect(effectiveTheme(after, systemDark)).not.toBe(before);
        if (effectiveTheme(after, systemDark) === (systemDark ? 'dark' : 'light')) expect(after).toBe('system');
      }
    }
  });
});

describe("Lara light's colours after the shift", () => {
  it('reaches 4.5:1 for white text on every shade a button, tag or badge fills with', () => {
    // The fills Lara light gives its primary, success, warning, danger and info components.
    for (const fill of ['#3B82F6', '#22C55E', '#F97316', '#EF4444', '#0EA5E9']) {
      expect(contrastRatio(fill, '#FFFFFF')).toBeLessThan(4.5);
      expect(contrastRatio(LARA_LIGHT_SHIFT[fill]!, '#FFFFFF'), fill).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('reaches 4.5:1 for the primary and message texts on the light surfaces', () => {
    for (const [text, surface] of [
      ['#3B82F6', '#FFFFFF'],
      ['#3B82F6', '#F9FAFB'],
      ['#FF5757', '#FDEDEC'],
      ['#CC8925', '#FDF4EA'],
      ['#EF4444', '#FFFFFF'],
    ] as const) {
      expect(contrastRatio(LARA_LIGHT_SHIFT[text]!, surface), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('replaces in one pass, so a shade is moved once and hover stays darker than rest', () => {
    const css = '.p-button{background:#3B82F6}.p-button:hover{background:#2563eb}.p-button:active{background:#1D4ED8}';
    expect(shiftLaraLight(css)).toBe('.p-button{background:#2563EB}.p-button:hover{background:#1D4ED8}.p-button:active{background:#1E40AF}');
  });

  it("leaves no failing 500 shade in the real theme file, and changes nothing but colours", () => {
    const shifted = shiftLaraLight(laraLight);
    expect(laraLight).toMatch(/#3B82F6/i);
    expect(shifted).not.toMatch(/#3B82F6\b/i);
    expect(shifted).not.toMatch(/#22C55E\b/i);
    expect(shifted.length).toBe(laraLight.length);
    expect(shifted.replace(/#[0-9a-f]{6}\b/gi, '#')).toBe(laraLight.replace(/#[0-9a-f]{6}\b/gi, '#'));
  });
});
