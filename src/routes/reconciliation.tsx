// Billing → Reconciliation (/billing/reconciliation): one cycle's board of one provider account (a
// resource over GET /billing/reconciliation?cycle=&account_id=, both from the URL: the current
// cycle and the first account by default; the account picker shows with several), the leak
// fix machine whose effects are provided here (POST …/fix, the toasts), and Import invoices (one
// call and a reload: nothing to confirm or go back to, so no machine of its own). Everything hangs
// off the cycle and account: another is another board, with its own actors.
import { useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import { FIX_LABELS, type LeakWire, type ReconciliationWire } from '../domain/billing';
import { LEAK_FIX_TEXTS, leakFixMachine } from '../machines/leak-fix';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { ConfirmFixDialog } from '../ui/billing/reconciliation/ConfirmFixDialog';
import { RECONCILIATION_TEXTS as T, currentCycle, leakId } from '../ui/billing/reconciliation/parts';
import { ReconciliationView } from '../ui/billing/reconciliation/ReconciliationView';
import { useAccountChoices } from './account-refs';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const routeApi = getRouteApi('/app/billing/reconciliation');

const boardMachine = createResourceMachine<ReconciliationWire>('reconciliationBoard');

export function ReconciliationRoute() {
  const search = routeApi.useSearch();
  const current = currentCycle();
  const cycle = search.cycle ?? current;
  const account = search.account ?? null;
  return <ReconciliationBoard key={`${cycle}/${account ?? ''}`} cycle={cycle} current={current} account={account} />;
}

/** A board as the page shows it: the leaks a fix has answered for replace the board's until it reloads. */
function withFixes(board: ReconciliationWire | null, fixed: Readonly<Record<string, LeakWire>>): ReconciliationWire | null {
  if (!board) return null;
  return { ...board, leaks: board.leaks.map((leak) => (leak.resolution ? leak : (fixed[leakId(leak)] ?? leak))) };
}

function ReconciliationBoard({ cycle, current, account }: { cycle: string; current: string; account: number | null }) {
  const { api } = useAppServices();
  const router = useRouter();
  const canChange = useCan('billing:manage');
  const [importing, setImporting] = useState(false);
  const [fixed, setFixed] = useState<Readonly<Record<string, LeakWire>>>({});

  const accounts = useAccountChoices();
  const board = usePageActor(boardMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.reconciliation.board(cycle, signal, account))) } }));
  const reload = () => board.send(reloadEvent(board.getSnapshot()));

  const fix = usePageActor(
    leakFixMachine.provide({
      // A fix is worked out on the board it was chosen on: the same account's.
      actors: { fixLeak: fromPromise(({ input, signal }) => outcome(() => api.reconciliation.fix(account === null ? input : { ...input, accountId: account }, signal))) },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'leak-fix' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'leak-fix' }),
        leakFixed: (_, leak) => {
          setFixed((known) => ({ ...known, [leakId(leak)]: leak }));
          reload();
        },
      },
    }),
  );

  const data = useSelector(board, (s) => s.context.data);
  const error = useSelector(board, (s) => (s.matches('failed') ? s.context.error : null));
  const refreshing = useSelector(board, (s) => s.hasTag('refreshing'));

  const fixBusy = useSelector(fix, (s) => s.hasTag('busy'));
  const confirming = useSelector(fix, (s) => s.hasTag('open'));
  const fixLeak = useSelector(fix, (s) => s.context.leak);
  const fixAction = useSelector(fix, (s) => s.context.action);
  const fixFailure = useSelector(fix, (s) => s.context.failure);
  const backAtIdle = useSelector(fix, (s) => s.matches('idle'));

  const importInvoices = async () => {
    setImporting(true);
    try {
      const result = await outcome(() => api.reconciliation.importInvoices());
      if (result.ok) toast.success(T.imported(result.data.imported, result.data.updated), { id: 'invoice-import' });
      else toast.error(result.message || T.importFailed, { id: 'invoice-import' });
      reload();
    } finally {
      setImporting(false);
    }
  };

  const searchOf = (next: string, nextAccount: number | null) => ({
    ...(next === current ? {} : { cycle: next }),
    ...(nextAccount === null ? {} : { account: nextAccount }),
  });
  const goTo = (next: string) => void router.navigate({ to: '/billing/reconciliation', search: searchOf(next, account) });

  return (
    <>
      <ReconciliationView
        cycle={cycle}
        current={current}
        board={withFixes(data, fixed)}
        error={error}
        refreshing={refreshing}
        canChange={canChange}
        importing={importing}
        fixBusy={fixBusy}
        fixing={fixBusy && fixLeak && fixAction ? { leak: leakId(fixLeak), action: fixAction } : null}
        fixFailure={backAtIdle && fixLeak && fixFailure ? { leak: leakId(fixLeak), message: fixFailure } : null}
        onCycle={goTo}
        onImport={() => void importInvoices()}
        onRetry={() => board.send({ type: 'user.retry' })}
        onFix={(leak, action) => fix.send({ type: 'user.fix', cycle, leak, action })}
        onNavigate={(url) => void router.navigate({ href: url })}
        {...(accounts ? { accounts, onAccount: (id: number) => void router.navigate({ to: '/billing/reconciliation', search: searchOf(cycle, id) }) } : {})}
      />
      <ConfirmFixDialog
        visible={confirming}
        title={LEAK_FIX_TEXTS.confirmTitle}
        question={fixLeak ? LEAK_FIX_TEXTS.cancelQuestion(fixLeak.serviceLineNumber ?? fixLeak.key) : ''}
        confirmLabel={FIX_LABELS.cancel_line}
        failure={fixFailure}
        busy={fixBusy}
        onConfirm={() => fix.send({ type: 'user.confirm' })}
        onClose={() => fix.send({ type: 'user.cancel' })}
      />
    </>
  );
}
