// The customer's terminals as a table: status, online, signal and uptime from telemetry, plan,
// data cap and this cycle's usage bar; a row opens the terminal's page. Props in, callbacks out.
import { DataTable } from 'primereact/datatable';
import { MY_AREA_MESSAGES as M, type MyTerminalWire } from '../../domain/my-area';
import { PAGE_TITLES } from '../../domain/navigation';
import { formatTerminalData } from '../../domain/terminals';
import { ErrorCard } from '../common/ErrorCard';
import { DASH, formatDateTime } from '../common/format';
import { PageHeader } from '../common/PageHeader';
import { useColumnFolding } from '../common/useColumnFolding';
import { formatSignal, formatUptime, LineStatusTag, OnlineTag, UsageBar } from './parts';

export interface MyTerminalsViewProps {
  terminals: MyTerminalWire[] | null;
  loading: boolean;
  error: string | null;
  onRetry(): void;
  onNavigate(url: string): void;
  onOpenTerminal(terminalId: string): void;
}

export function MyTerminalsView({ terminals, loading, error, onRetry, onNavigate, onOpenTerminal }: MyTerminalsViewProps) {
  const meta = PAGE_TITLES['/my/terminals'];
  const folding = useColumnFolding<MyTerminalWire>({ rowKey: (t) => t.terminalId, rowName: (t) => t.nickname || t.terminalId });
  return (
    <div className="page">
      <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} onNavigate={onNavigate} />
      {error && !terminals ? (
        <ErrorCard title={M.loadFailed} message={error} onRetry={onRetry} />
      ) : (
        <DataTable
          value={terminals ?? []}
          loading={loading}
          dataKey="terminalId"
          emptyMessage={M.noTerminals}
          rowClassName={() => 'my-row-link'}
          onRowClick={(event) => onOpenTerminal((event.data as MyTerminalWire).terminalId)}
          // The name goes on the <table> itself (a plain aria-label lands on PrimeReact's wrapper div).
          pt={{ table: { 'aria-label': 'Your terminals' } }}
          {...folding.table([
            {
              priority: 'always',
              header: 'Terminal',
              body: (t) => (
                <button type="button" className="p-link" onClick={() => onOpenTerminal(t.terminalId)}>
                  <strong>{t.nickname || t.terminalId}</strong>
                  <span className="text-muted"> {t.serviceLineNumber ?? DASH}</span>
                </button>
              ),
            },
            { priority: 'always', header: 'Status', body: (t) => <LineStatusTag status={t.status} /> },
            { priority: 'fold', header: 'Connection', body: (t) => <OnlineTag online={t.online} /> },
            {
              priority: 'fold',
              header: 'Signal',
              body: (t) => <span title={t.telemetryAt ? `Read ${formatDateTime(t.telemetryAt)}` : 'Never read'}>{formatSignal(t.signalQuality)}</span>,
            },
            { priority: 'fold', header: 'Uptime', body: (t) => formatUptime(t.uptimeSeconds) },
            { priority: 'fold', header: 'Plan', body: (t) => t.planName ?? DASH },
            { priority: 'fold', header: 'Data cap', body: (t) => (t.usage.planGB > 0 ? formatTerminalData(t.usage.planGB) : DASH) },
            { priority: 'fold', header: 'This cycle', body: (t) => <UsageBar usage={t.usage} label={`Data used by ${t.nickname || t.terminalId}`} /> },
          ])}
        />
      )}
    </div>
  );
}
