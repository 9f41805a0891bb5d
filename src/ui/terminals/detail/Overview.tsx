// Above the tabs, so the terminal's identity stays in view whichever tab is open.
import { Tag } from 'primereact/tag';
import { calendarDay } from '../format';
import { Fields, type Basics } from './parts';

function ActiveTag({ active }: { active: boolean }) {
  return <Tag value={active ? 'Active' : 'Inactive'} severity={active ? 'success' : 'danger'} rounded />;
}

export function Overview({ basics, removedAt }: { basics: Basics; removedAt: string | null }) {
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
        ]}
      />
    </section>
  );
}
