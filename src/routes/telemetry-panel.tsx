// The Telemetry tab, shared by Terminal Details (admin) and the customer's own terminal page: its
// own telemetryHistory actor, started when the tab shows and stopped when it goes, over the read
// the page chooses, and the view (src/ui/telemetry/TelemetryView.tsx).
import { useSelector } from '@xstate/react';
import { createTelemetryActors, type TelemetryHistoryLoad } from '../api/telemetry';
import { sameTelemetryHistoryView, telemetryHistoryMachine, telemetryHistoryView } from '../machines/telemetry-history';
import { TelemetryView } from '../ui/telemetry/TelemetryView';
import { usePageActor } from './services';

// ---- The actor ------------------------------------------------------------------------------

/** One terminal's Telemetry tab: its own actor over `load`, which the page chooses. */
export function TelemetryPanel({ terminalId, load, headingLevel }: { terminalId: string; load: TelemetryHistoryLoad; headingLevel?: 2 | 3 }) {
  const actor = usePageActor(telemetryHistoryMachine.provide({ actors: createTelemetryActors(load) }), { input: { terminalId } });
  const view = useSelector(actor, telemetryHistoryView, sameTelemetryHistoryView);
  return (
    <TelemetryView
      view={view}
      onRange={(range) => actor.send({ type: 'user.selectRange', range })}
      onRetry={() => actor.send({ type: 'user.retry' })}
      {...(headingLevel === undefined ? {} : { headingLevel })}
    />
  );
}
