// The amount at stake per kind of leak, as bars (Chart.js through PrimeReact's Chart, which loads
// Chart.js on demand). The figures are in the sections below it as well: the chart is a glance.
import { useMemo } from 'react';
import { Chart } from 'primereact/chart';
import { LEAK_KINDS, type ReconciliationWire } from '../../../domain/billing';
import { formatMinor, formatMoney } from '../../../domain/money';
import { LEAK_SHORT_LABELS, RECONCILIATION_TEXTS as T } from './parts';
import { CHART_COLORS, barChartOptions } from '../../theme/chart';
import { useTheme } from '../../theme/store';

export function LeakChart({ board }: { board: ReconciliationWire }) {
  const theme = useTheme();
  const options = useMemo(() => barChartOptions(theme), [theme]);
  // The chart is drawn again whenever its data object changes: only a new board or theme makes one.
  const { data, summary } = useMemo(() => {
    const amountOf = (kind: string) => board.byKind.find((k) => k.kind === kind)?.amountMinor ?? 0;
    return {
      data: {
        labels: LEAK_KINDS.map((kind) => LEAK_SHORT_LABELS[kind]),
        datasets: [
          {
            label: `${T.chartTitle} (${board.currency})`,
            data: LEAK_KINDS.map((kind) => Number(formatMinor(amountOf(kind), board.currency))),
            backgroundColor: CHART_COLORS[theme].warning,
          },
        ],
      },
      summary: LEAK_KINDS.map((kind) => `${LEAK_SHORT_LABELS[kind]}: ${formatMoney(amountOf(kind), board.currency)}`).join(', '),
    };
  }, [board, theme]);
  return (
    <figure className="leak-chart">
      <figcaption>{T.chartTitle}</figcaption>
      {/* The canvas is named through pt: PrimeReact 10.9 also spreads an ariaLabel prop onto its wrapper. */}
      <Chart type="bar" data={data} options={options} pt={{ canvas: { 'aria-label': `${T.chartTitle}: ${summary}` } }} className="leak-chart-canvas" />
    </figure>
  );
}
