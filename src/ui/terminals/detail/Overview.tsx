// Above the tabs, so the terminal's identity stays in view whichever tab is open.
import { Tag } from 'primereact/tag';
import { calendarDay } from '../format';
import { Fields, type Basics } from './parts';

function ActiveTag({ active }: { active: boolean }) {
  return <Tag value={active ? 'Active' : 'Inactive'} severity={active ? 'success' : 'danger'} rounded />;
}

/** `showAccount`: the portal holds more than one provider account, so which one the terminal is under matters. */
export function Overview({ basics, removedAt, showAccount = false }: { basics: Basics; removedAt: string | null; showAccount?: boolean }) {
  return (
    <section className="terminal-overview" aria-label="Overview">
      <div className="terminal-overview-head">
        <ActiveTag active={basics.active} />
        {removedAt && <Tag value={`Removed by the provider ${calendarDay(removedAt)}`} severity="secondary" rounded />}
      </div>
      <Fields
        items={[
          ['User Terminal ID', basics.userTerminalId],
          ['Kit Serial', basics.kitSerialNumber],
          ['Dish Serial', basics.dishSerialNumber],
          ['Service Line Number', basics.serviceLineNumber],
          ...(showAccount ? [['Account', basics.accountName] as const] : []),
        ]}
      />
    </section>
  );
}
