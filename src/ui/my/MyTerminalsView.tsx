// The customer's terminals as a table: status, online, signal and uptime from telemetry, plan,
// data cap and this cycle's usage bar; a row opens the terminal's page. Props in, callbacks out.
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { MY_AREA_MESSAGES as M, type MyTerminalWire } from '../../domain/my-area';
import { PAGE_TITLES } from '../../domain/navigation';
import { formatTerminalData } from '../../domain/terminals';
import { ErrorCard } from '../common/ErrorCard';
import { DASH, formatDateTime } from '../common/format';
import { PageHeader } from '../common/PageHeader';
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
        >
          <Column
            header="Terminal"
            body={(t: MyTerminalWire) => (
              <button type="button" className="p-link" onClick={() => onOpenTerminal(t.terminalId)}>
                <strong>{t.nickname || t.terminalId}</strong>
                <span className="text-muted"> {t.serviceLineNumber ?? DASH}</span>
              </button>
            )}
          />
          <Column header="Status" body={(t: MyTerminalWire) => <LineStatusTag status={t.status} />} />
          <Column header="Connection" body={(t: MyTerminalWire) => <OnlineTag online={t.online} />} />
          <Column
            header="Signal"
            body={(t: MyTerminalWire) => <span title={t.telemetryAt ? `Read ${formatDateTime(t.telemetryAt)}` : 'Never read'}>{formatSignal(t.signalQuality)}</span>}
          />
          <Column header="Uptime" body={(t: MyTerminalWire) => formatUptime(t.uptimeSeconds)} />
          <Column header="Plan" body={(t: MyTerminalWire) => t.planName ?? DASH} />
          <Column header="Data cap" body={(t: MyTerminalWire) => (t.usage.planGB > 0 ? formatTerminalData(t.usage.planGB) : DASH)} />
          <Column header="This cycle" body={(t: MyTerminalWire) => <UsageBar usage={t.usage} label={`Data used by ${t.nickname || t.terminalId}`} />} />
        </DataTable>
      )}
    </div>
  );
}
