// One statement (/billing/statements/{id}, admin): a resource machine over GET
// /billing/statements/{id}, the printable document, and for those who manage billing "Add credit or charge"
// (the adjustment form machine, whose effects are provided here: the API call, the toasts, and
// reading the statement again once a correction is saved).
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import type { StatementWire } from '../domain/billing';
import { PAGE_TITLES } from '../domain/navigation';
import { ADJUSTMENT_REASON_MAX_LENGTH } from '../domain/billing';
import { adjustmentFormMachine } from '../machines/adjustment-form';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { AdjustmentDialog } from '../ui/billing/statements/AdjustmentDialog';
import { StatementView } from '../ui/billing/statements/StatementView';
import { NavLink } from '../ui/common/NavLink';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';
import { monthLabel } from '../domain/my-area';

export const statementMachine = createResourceMachine<StatementWire>('statement');
const routeApi = getRouteApi('/app/billing/statements/$statementId');

export function StatementDetailRoute() {
  const { statementId } = routeApi.useParams();
  // Another statement is another page: its machines start afresh.
  return <StatementDetailPage key={statementId} statementId={statementId} />;
}

/** "ST-2026-03-000042", or "the March 2026 draft" before it has a number. */
const statementName = (statement: StatementWire) => statement.number ?? `the ${monthLabel(statement.cycle)} draft`;

function StatementDetailPage({ statementId }: { statementId: string }) {
  const { api } = useAppServices();
  const router = useRouter();
  const canAdjust = useCan('billing:manage');
  const page = usePageActor(statementMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.statements.get(statementId, signal))) } }));
  const form = usePageActor(
    adjustmentFormMachine.provide({
      actors: { saveAdjustment: fromPromise(({ input, signal }) => api.statements.adjust(input, signal)) },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'adjustment-form' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'adjustment-form' }),
        adjustmentSaved: () => page.send(reloadEvent(page.getSnapshot())),
      },
    }),
  );

  const statement = useSelector(page, (s) => s.context.data);
  const loading = useSelector(page, (s) => s.hasTag('loading'));
  const error = useSelector(page, (s) => (s.matches('failed') ? s.context.error : null));
  const formVisible = useSelector(form, (s) => !s.matches('closed'));
  const formBusy = useSelector(form, (s) => s.hasTag('busy'));
  const values = useSelector(form, (s) => s.context.form);
  const errors = useSelector(form, (s) => s.context.errors);
  const failure = useSelector(form, (s) => s.context.failure);
  const navigate = (url: string) => void router.navigate({ href: url });

  return (
    <StatementView
      meta={PAGE_TITLES['/billing/statements/$statementId']}
      statement={statement}
      loading={loading}
      error={error}
      subtitle={
        statement ? (
          <>
            <NavLink url={`/customer/terminals/${encodeURIComponent(statement.customerId)}`} onNavigate={navigate}>
              {statement.customerName}
            </NavLink>
            {` · ${monthLabel(statement.cycle)}`}
          </>
        ) : undefined
      }
      onRetry={() => page.send({ type: 'user.retry' })}
      onNavigate={navigate}
      onPrint={() => window.print()}
      {...(canAdjust && statement
        ? { onAddAdjustment: () => form.send({ type: 'user.open', target: { statementId: statement.id, customerId: statement.customerId, currency: statement.currency } }) }
        : {})}
    >
      {canAdjust && statement && (
        <AdjustmentDialog
          visible={formVisible}
          busy={formBusy}
          currency={statement.currency}
          statement={statementName(statement)}
          form={values}
          errors={errors}
          failure={failure}
          reasonMaxLength={ADJUSTMENT_REASON_MAX_LENGTH}
          onDirection={(value) => form.send({ type: 'user.direction', value })}
          onField={(field, value) => form.send({ type: 'user.field', field, value })}
          onSubmit={() => form.send({ type: 'user.submit' })}
          onCancel={() => form.send({ type: 'user.cancel' })}
        />
      )}
    </StatementView>
  );
}
