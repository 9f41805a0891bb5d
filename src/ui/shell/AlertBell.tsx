// The bell in the admin shell's top bar: the unread count on a badge, and a panel of the
// newest unresolved alerts with a link to the Alerts page. Renders props and calls callbacks; the
// count's polling and "seen" are the alert bell machine's.
import { useRef } from 'react';
import { Button } from 'primereact/button';
import { OverlayPanel } from 'primereact/overlaypanel';
import { ALERT_MESSAGES, type AlertWire } from '../../domain/alerts';
import { SeverityTag, OpenedAt, targetText } from '../alerts/parts';
import { NavLink } from '../common/NavLink';
import { useNow } from '../common/useNow';
import '../alerts/alerts.css';

export const BELL_PANEL_LABEL = 'Newest alerts';
export const BELL_EMPTY = 'No unresolved alerts.';
export const VIEW_ALL_ALERTS = 'View all alerts';

export interface AlertBellProps {
  unread: number;
  /** The newest unresolved alerts; null before the first answer. */
  latest: readonly AlertWire[] | null;
  /** The panel was opened (the count is then seen). */
  onOpen(): void;
  onNavigate(url: string): void;
}

export function AlertBell({ unread, latest, onOpen, onNavigate }: AlertBellProps) {
  const panel = useRef<OverlayPanel>(null);
  const now = useNow();
  const go = (url: string) => {
    panel.current?.hide();
    onNavigate(url);
  };
  return (
    <>
      <Button
        type="button"
        icon="pi pi-bell"
        text
        rounded
        severity="secondary"
        className="alert-bell"
        aria-label={ALERT_MESSAGES.bellLabel(unread)}
        aria-haspopup="dialog"
        badge={unread > 0 ? String(unread) : undefined}
        badgeClassName="p-badge-danger"
        onClick={(event) => panel.current?.toggle(event)}
      />
      <OverlayPanel ref={panel} onShow={onOpen} className="alert-bell-panel" pt={{ root: { role: 'dialog', 'aria-label': BELL_PANEL_LABEL } }}>
        {latest === null || latest.length === 0 ? (
          <p>{BELL_EMPTY}</p>
        ) : (
          <ul className="alert-bell-list" aria-label={BELL_PANEL_LABEL}>
            {latest.map((alert) => (
              <li key={alert.id}>
                <SeverityTag severity={alert.severity} /> <strong>{alert.title}</strong>
                <br />
                <small>
                  {targetText(alert)} · <OpenedAt iso={alert.openedAt} now={now} />
                </small>
              </li>
            ))}
          </ul>
        )}
        <NavLink url="/alerts" onNavigate={go}>
          {VIEW_ALL_ALERTS}
        </NavLink>
      </OverlayPanel>
    </>
  );
}
