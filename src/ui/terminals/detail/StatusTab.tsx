import { Tag } from 'primereact/tag';
import { TERMINAL_MESSAGES, type TerminalDetail, type TerminalSyncStatus, type TerminalTelemetry } from '../../../domain/terminals';
import { count, dateTime, DASH, duration, percent, relative, SIGNAL_GRADE_LABEL, signalClass, signalGrade, SYNC_STATUS_LABEL, text } from '../format';
import { Fields, Section, type Basics } from './parts';

/** synced in the default style; pending and error destructive (spec). */
function SyncTag({ status }: { status: TerminalSyncStatus }) {
  return <Tag value={SYNC_STATUS_LABEL[status]} severity={status === 'synced' ? undefined : 'danger'} className="sync-status-tag" />;
}

function Telemetry({ telemetry, now }: { telemetry: TerminalTelemetry; now: number }) {
  const signal = telemetry.signalQuality;
  const mbps = (value: number | null) => (value == null ? DASH : `${value.toFixed(1)} Mbps`);
  return (
    <Section title="Telemetry">
      <Fields
        items={[
          [
            'Signal Quality',
            signal == null ? (
              DASH
            ) : (
              <span className={signalClass(signal)}>
                {percent(signal)} ({SIGNAL_GRADE_LABEL[signalGrade(signal)]})
              </span>
            ),
          ],
          ['Latency', telemetry.latencyMs == null ? DASH : `${count(Math.round(telemetry.latencyMs))} ms`],
          ['Downlink', mbps(telemetry.downlinkMbps)],
          ['Uplink', mbps(telemetry.uplinkMbps)],
          ['Obstruction', telemetry.obstructionPercent == null ? DASH : `${telemetry.obstructionPercent.toFixed(1)}%`],
          ['Uptime', telemetry.uptimeSeconds == null ? DASH : duration(telemetry.uptimeSeconds)],
          ['Software Version', text(telemetry.softwareVersion)],
          ['Last Report', relative(telemetry.reportedAt, now)],
          [
            'Alerts',
            telemetry.alerts.length === 0 ? (
              'None'
            ) : (
              <span className="terminal-alerts">
                {telemetry.alerts.map((alert) => (
                  <Tag key={alert} value={alert} severity="warning" />
                ))}
              </span>
            ),
          ],
        ]}
      />
    </Section>
  );
}

export function StatusTab({ basics, detail, now }: { basics: Basics; detail: TerminalDetail | null; now: number }) {
  const on = basics.active;
  return (
    <div className="terminal-tab">
      <Section title="Connection">
        <Fields
          items={[
            ['Connection', on ? 'Connected' : 'Disconnected'],
            ['Power', on ? 'On' : 'Off'],
            ['Network', on ? 'Online' : 'Offline'],
          ]}
        />
        <p className={on ? 'status-line status-line-active' : 'status-line status-line-inactive'}>
          <i className={on ? 'pi pi-check-circle' : 'pi pi-times-circle'} aria-hidden="true" />{' '}
          {on ? TERMINAL_MESSAGES.activeStatusText : TERMINAL_MESSAGES.inactiveStatusText}
        </p>
      </Section>
      <Section title="Sync">
        <Fields
          items={[
            [
              'Last Synced',
              basics.lastSyncedAt ? (
                <span title={dateTime(basics.lastSyncedAt)}>
                  {dateTime(basics.lastSyncedAt)} ({relative(basics.lastSyncedAt, now)})
                </span>
              ) : (
                'Never'
              ),
            ],
            ['Sync Status', <SyncTag key="sync" status={basics.syncStatus} />],
            ...(detail?.syncError ? ([['Sync Error', detail.syncError]] as const) : []),
          ]}
        />
      </Section>
      {detail?.telemetry && <Telemetry telemetry={detail.telemetry} now={now} />}
    </div>
  );
}
