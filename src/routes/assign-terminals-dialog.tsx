// The Assign Terminals dialog as a page offers it (a customer's usage page, the customers list's
// row menu): its assignTerminals actor with the API calls and the toast provided here.
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { ASSIGNED_PREVIEW_SIZE, type AssignTerminalsResult } from '../domain/customer-terminals';
import { assignTerminalsMachine, type AssignCustomer } from '../machines/assign-terminals';
import { AssignTerminalsDialog } from '../ui/customer-terminals/AssignTerminalsDialog';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

/** `open(customer)` shows the dialog for that customer; `dialog` is the element to render. */
export function useAssignTerminalsDialog(options: { onAssigned: (result: AssignTerminalsResult) => void }) {
  const { api } = useAppServices();
  const actor = usePageActor(
    assignTerminalsMachine.provide({
      actors: {
        loadAssigned: fromPromise(({ input, signal }) =>
          outcome(() => api.customerTerminals.assignedTerminalsPage(input, { page: 1, limit: ASSIGNED_PREVIEW_SIZE }, signal)),
        ),
        assignTerminals: fromPromise(({ input, signal }) =>
          outcome(() => api.customerTerminals.assignTerminals(input.customerUuid, input.serviceLineNumbers, signal)),
        ),
      },
      actions: {
        notifyFailure: (_, message) => void toast.error(message, { id: 'assign-terminals' }),
        terminalsAssigned: (_, result) => options.onAssigned(result),
        // Spec 8: a failed fetch of the assigned list is logged only; the dialog shows an empty list.
        logAssignedFailure: (_, { reason }) => console.warn('Failed to fetch assigned terminals:', reason),
      },
    }),
  );

  return {
    open: (target: AssignCustomer) => actor.send({ type: 'user.open', customer: target }),
    // The dialog reads the actor itself: a key typed in it renders the dialog, not the page.
    dialog: <AssignTerminals actor={actor} />,
  };
}

function AssignTerminals({ actor }: { actor: ActorRefFrom<typeof assignTerminalsMachine> }) {
  const visible = useSelector(actor, (s) => s.hasTag('open'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const assignedLoading = useSelector(actor, (s) => s.hasTag('loadingAssigned'));
  const customer = useSelector(actor, (s) => s.context.customer);
  const assigned = useSelector(actor, (s) => s.context.assigned);
  const assignedTotal = useSelector(actor, (s) => s.context.assignedTotal);
  const text = useSelector(actor, (s) => s.context.text);
  const error = useSelector(actor, (s) => s.context.error);
  const result = useSelector(actor, (s) => s.context.result);

  return (
    <AssignTerminalsDialog
      visible={visible}
      customer={customer}
      assigned={assigned}
      assignedTotal={assignedTotal}
      assignedLoading={assignedLoading}
      text={text}
      error={error}
      result={result}
      busy={busy}
      onText={(value) => actor.send({ type: 'user.input', value })}
      onSubmit={() => actor.send({ type: 'user.submit' })}
      onClose={() => actor.send({ type: 'user.close' })}
    />
  );
}
