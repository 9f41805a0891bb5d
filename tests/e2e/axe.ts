// axe-core in the page: WCAG 2 A and AA (2.0 and 2.1) rules over what the page shows now. The
// script is evaluated through the DevTools protocol, which the portal's CSP (no inline script)
// does not govern, so the page runs with its production headers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary: string }[];
}

interface AxeWindow {
  axe?: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> };
}

/**
 * The WCAG rules whose outcome depends on the colours alone: a theme switch changes the colours
 * and nothing else (the same elements, names, roles and order), so on a screen already checked in
 * one theme these are what the other theme can break.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * The WCAG violations on the page as it is now (an empty list when it passes): every WCAG 2 A and
 * AA rule, or with `colours` only COLOUR_RULES.
 */
export async function axeViolations(page: Page, { colours = false }: { colours?: boolean } = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => Boolean((window as AxeWindow).axe)))) await page.evaluate(AXE_SOURCE);
  const runOnly = colours ? { type: 'rule', values: [...COLOUR_RULES] } : { type: 'tag', values: [...WCAG_TAGS] };
  return page.evaluate(async (only) => {
    const axe = (window as AxeWindow).axe!;
    const result = await axe.run(document, { runOnly: only, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, summary: (n.failureSummary ?? '').slice(0, 300) })),
    }));
  }, runOnly);
}

/** One line per rule and a few of its nodes: what a failing test prints. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.summary.replace(/\n/g, ' ')}`).join('\n')}`).join('\n');
}
