// Chart.js draws on a canvas, out of CSS's reach: its text, grid and bar colours follow the theme
// from here (the same values as the CSS tokens in styles.css).
import type { Theme } from '../../domain/theme';

export interface ChartColors {
  text: string;
  grid: string;
  warning: string;
}

export const CHART_COLORS: Readonly<Record<Theme, ChartColors>> = {
  light: { text: '#4b5563', grid: '#e5e7eb', warning: '#f59e0b' },
  dark: { text: '#d1d5db', grid: '#374151', warning: '#fbbf24' },
};

/** Bar-chart options with the theme's colours on both axes. */
export function barChartOptions(theme: Theme) {
  const colors = CHART_COLORS[theme];
  const axis = { ticks: { color: colors.text }, grid: { color: colors.grid } };
  return {
    maintainAspectRatio: false,
    plugins: { legend: { display: false } },
    scales: { x: axis, y: { ...axis, beginAtZero: true } },
  };
}
