// "User Terminals Results": Overview, Terminals List, Statistics and Raw Response tabs.
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { TabPanel, TabView } from 'primereact/tabview';
import type { ConsoleTerminal, UserTerminalsResponse } from '../../domain/provider-console';
import { count, DASH, date, milliseconds, text } from './format';
import { Block, Fields, PAGE_SIZES, PAGINATOR_PT, RawJson, StatusTag } from './parts';

/** Where a terminal is: its address reference, else its region. */
export const terminalLocation = (terminal: ConsoleTerminal) => terminal.addressReference || terminal.region || DASH;

function OverviewCard({ title, value, icon }: { title: string; value: number; icon: string }) {
  return (
    <div className="stat-card console-stat" role="group" aria-label={title}>
      <div className="stat-card-head">
        <span className="stat-card-title">{title}</span>
        <i className={`${icon} stat-card-icon`} aria-hidden="true" />
      </div>
      <div className="stat-card-value">{count(value)}</div>
    </div>
  );
}

function CountTable({ counts, label }: { counts: Record<string, number>; label: string }) {
  const rows = Object.entries(counts)
    .map(([name, terminals]) => ({ name, terminals }))
    .sort((a, b) => b.terminals - a.terminals || a.name.localeCompare(b.name));
  return (
    <DataTable value={rows} dataKey="name" size="small" emptyMessage="None reported" pt={{ table: { 'aria-label': `${label} counts` } }}>
      <Column field="name" header={label} />
      <Column field="terminals" header="Terminals" body={(row: { terminals: number }) => count(row.terminals)} />
    </DataTable>
  );
}

export function TerminalsResults({ response }: { response: UserTerminalsResponse }) {
  const { stats, metadata } = response;
  return (
    <TabView className="console-tabs" pt={{ nav: { 'aria-label': 'User terminals results' } }}>
      <TabPanel header="Overview">
        <div className="console-stat-grid">
          <OverviewCard title="Total Terminals" value={stats.totalTerminals} icon="pi pi-server" />
          <OverviewCard title="Active" value={stats.activeTerminals} icon="pi pi-check-circle" />
          <OverviewCard title="Inactive" value={stats.inactiveTerminals} icon="pi pi-times-circle" />
          <OverviewCard title="Connected" value={stats.connectedTerminals} icon="pi pi-wifi" />
        </div>
      </TabPanel>

      <TabPanel header="Terminals List">
        <DataTable
          value={response.terminals}
          dataKey="id"
          size="small"
          paginator
          rows={PAGE_SIZES[0]}
          rowsPerPageOptions={PAGE_SIZES}
          emptyMessage="No user terminals"
          pt={{ table: { 'aria-label': 'User terminals' }, paginator: PAGINATOR_PT }}
        >
          <Column field="userTerminalId" header="Terminal ID" />
          <Column field="kitSerialNumber" header="Kit Serial" />
          <Column header="Status" body={(terminal: ConsoleTerminal) => <StatusTag active={terminal.active} />} />
          <Column header="Service Line" body={(terminal: ConsoleTerminal) => text(terminal.serviceLineNumber)} />
          <Column header="Location" body={terminalLocation} />
          <Column header="Model" body={(terminal: ConsoleTerminal) => text(terminal.model)} />
        </DataTable>
      </TabPanel>

      <TabPanel header="Statistics">
        <div className="console-columns">
          <Block title="Regions">
            <CountTable counts={stats.regions} label="Region" />
          </Block>
          <Block title="Models">
            <CountTable counts={stats.models} label="Model" />
          </Block>
          <Block title="API Metadata">
            <Fields
              items={[
                ['Account Number', text(metadata.accountNumber)],
                ['API Version', metadata.apiVersion],
                ['API Call Duration', milliseconds(metadata.apiCallDuration)],
                ['Data Freshness', date(metadata.dataFreshness)],
              ]}
            />
          </Block>
        </div>
      </TabPanel>

      <TabPanel header="Raw Response">
        <RawJson value={response} label="Raw user terminals response" />
      </TabPanel>
    </TabView>
  );
}
