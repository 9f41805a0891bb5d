// What more than one part of the Terminal Details dialog needs, kept once so the tabs look alike.
import { useId, type ReactNode } from 'react';
import type { ServiceLineUsageWire, TerminalDetail, TerminalListItem, TerminalSyncStatus } from '../../../domain/terminals';
import { DASH } from '../format';

interface Owner {
  uuid: string;
  name: string;
  company: string | null;
}

/** What the overview and the tabs show, from the detail when it came, else the list record. */
export interface Basics {
  active: boolean;
  userTerminalId: string;
  kitSerialNumber: string;
  dishSerialNumber: string;
  serviceLineNumber: string;
  syncStatus: TerminalSyncStatus;
  lastSyncedAt: string | null;
  owner: Owner | null;
  /** The provider account's name, when the server said. */
  accountName: string | null;
}

export function basicsOf(terminal: TerminalListItem | null, detail: TerminalDetail | null, usage: ServiceLineUsageWire | null): Basics | null {
  // The detail is a list record plus more, so one reading serves both; the detail wins when it came.
  const record = detail ?? terminal;
  if (!record) return null;
  return {
    active: record.active,
    userTerminalId: record.userTerminalId,
    kitSerialNumber: record.kitSerialNumber,
    dishSerialNumber: record.dishSerialNumber,
    serviceLineNumber: record.serviceLineNumber,
    syncStatus: record.syncStatus,
    lastSyncedAt: record.lastSyncedAt,
    accountName: record.accountName,
    owner:
      detail?.owner ??
      (record.assignedTo ? { uuid: record.assignedTo, name: record.assignedToCustomer ?? 'Customer', company: null } : null) ??
      usage?.owner ??
      null,
  };
}

export function Fields({ items }: { items: ReadonlyArray<readonly [label: string, value: ReactNode]> }) {
  return (
    <dl className="terminal-fields">
      {items.map(([label, value]) => (
        <div key={label} className="terminal-field">
          <dt>{label}</dt>
          <dd>{value ?? DASH}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="terminal-section" aria-labelledby={id}>
      <h3 id={id} className="terminal-section-title">
        {title}
      </h3>
      {children}
    </section>
  );
}

export function EmptyNotice({ icon, title, children }: { icon: string; title: string; children: ReactNode }) {
  return (
    <div className="terminal-empty">
      <i className={`${icon} terminal-empty-icon`} aria-hidden="true" />
      <h3 className="terminal-empty-title">{title}</h3>
      <p className="text-muted">{children}</p>
    </div>
  );
}
