// "just now", "5 minutes ago", "yesterday"; older than a week falls back to the local date and time.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const WEEK_MS = 7 * 86_400_000;

// One formatter per locale, not one per call: a list writes this once a row at every render.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  return format;
}

export function formatRelativeTime(iso: string, now: number, locale = 'en'): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const diff = at - now;
  const abs = Math.abs(diff);
  if (abs < 45_000) return 'just now';
  if (abs >= WEEK_MS) return new Date(at).toLocaleString(locale);
  const format = relativeFormat(locale);
  for (const [unit, ms] of UNITS) {
    if (abs >= ms) return format.format(Math.round(diff / ms), unit);
  }
  return format.format(diff < 0 ? -1 : 1, 'minute');
}

export function formatLocalDateTime(iso: string, locale = 'en'): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : new Date(at).toLocaleString(locale);
}
