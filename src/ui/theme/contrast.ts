// PrimeReact's Lara light theme paints its buttons, tags and links in Tailwind's 500 shades
// (#3B82F6 blue, #22C55E green, …), and white on those is 2.3:1 to 3.7:1, below WCAG AA's 4.5:1
// for text. Rather than override each component's rules, the theme file itself is shifted at build
// time (vite.config.ts): every shade of those hues moves the same steps darker, so hover and
// active states keep their order. The dark theme uses light shades with dark text and passes.

/** WCAG relative luminance of an sRGB colour written #rrggbb. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio between two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Each hue's shades from 500 to 900: a theme colour moves to the shade `steps` further. */
const SCALES: Record<string, { steps: number; shades: string[] }> = {
  blue: { steps: 1, shades: ['#3B82F6', '#2563EB', '#1D4ED8', '#1E40AF', '#1E3A8A'] },
  green: { steps: 2, shades: ['#22C55E', '#16A34A', '#15803D', '#166534', '#14532D'] },
  orange: { steps: 2, shades: ['#F97316', '#EA580C', '#C2410C', '#9A3412', '#7C2D12'] },
  red: { steps: 1, shades: ['#EF4444', '#DC2626', '#B91C1C', '#991B1B', '#7F1D1D'] },
  sky: { steps: 2, shades: ['#0EA5E9', '#0284C7', '#0369A1', '#075985', '#0C4A6E'] },
};

/** Lara's message and toast text colours on their pale backgrounds (no scale of their own). */
const MESSAGE_TEXTS: Record<string, string> = {
  '#FF5757': '#B91C1C',
  '#CC8925': '#92400E',
  '#1EA97C': '#047857',
  '#E24C4C': '#C81E1E',
};

/** From → to, upper-case hex; each hue's lighter shades move (the darkest only receive). */
export const LARA_LIGHT_SHIFT: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    Object.values(SCALES).flatMap(({ steps, shades }) => shades.slice(0, shades.length - steps).map((shade, i) => [shade, shades[i + steps]!] as const)),
  ),
  ...MESSAGE_TEXTS,
};

/** The theme's CSS with its failing shades replaced in one pass (a replaced colour is not replaced again). */
export function shiftLaraLight(css: string): string {
  return css.replace(/#[0-9a-fA-F]{6}\b/g, (hex) => LARA_LIGHT_SHIFT[hex.toUpperCase()] ?? hex);
}
