// The customer's statements (/my/statements) and one of them (/my/statements/{id}), and the same
// pages in an admin's "View as customer" preview: resource machines reading through the area's
// source, the list linking to each statement, the statement as its printable document with
// nothing to change on it. Above the list, where the area's source can read it, the customer's
// balance and payments (a resource machine of its own: a failure of one leaves the other shown).
import { useParams, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { ApiResult } from '../../api';
import type { StatementSummaryWire, StatementWire } from '../../domain/billing';
import { isoDay, type MyAccountWire } from '../../domain/ledger';
import { PAGE_TITLES } from '../../domain/navigation';
import { createResourceMachine } from '../../machines/resource';
import { MyAccountView } from '../../ui/billing/account/MyAccountView';
import { MyStatementsView } from '../../ui/billing/statements/MyStatementsView';
import { StatementView } from '../../ui/billing/statements/StatementView';
import { outcome } from '../outcome';
import { usePageActor } from '../services';
import { useMyAreaSource } from './source';

export const myStatementsMachine = createResourceMachine<StatementSummaryWire[]>('myStatements');
export const myStatementMachine = createResourceMachine<StatementWire>('myStatement');
export const myAccountMachine = createResourceMachine<MyAccountWire>('myAccount');

export function MyStatementsRoute() {
  const source = useMyAreaSource();
  const router = useRouter();
  const list = usePageActor(myStatementsMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => source.statements(signal))) } }));
  const statements = useSelector(list, (s) => s.context.data);
  const loading = useSelector(list, (s) => s.hasTag('loading'));
  const error = useSelector(list, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <MyStatementsView
      statements={statements}
      loading={loading}
      error={error}
      today={isoDay(new Date())}
      {...(source.account ? { account: <MyAccountSection load={source.account} /> } : {})}
      onRetry={() => list.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: source.href(url) })}
      onOpen={(id) => void router.navigate({ href: source.href(`/my/statements/${encodeURIComponent(id)}`) })}
    />
  );
}

function MyAccountSection({ load }: { load: (signal?: AbortSignal) => Promise<ApiResult<MyAccountWire>> }) {
  const account = usePageActor(myAccountMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => load(signal))) } }));
  const data = useSelector(account, (s) => s.context.data);
  const error = useSelector(account, (s) => (s.matches('failed') ? s.context.error : null));
  return <MyAccountView account={data} error={error} onRetry={() => account.send({ type: 'user.retry' })} />;
}

export function MyStatementRoute() {
  // Not strict: the same page is mounted under /my and under the admin preview.
  const { statementId = '' } = useParams({ strict: false });
  // Another statement is another page: its machine starts afresh.
  return <MyStatementPage key={statementId} statementId={statementId} />;
}

function MyStatementPage({ statementId }: { statementId: string }) {
  const source = useMyAreaSource();
  const router = useRouter();
  const page = usePageActor(myStatementMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => source.statement(statementId, signal))) } }));
  const statement = useSelector(page, (s) => s.context.data);
  const loading = useSelector(page, (s) => s.hasTag('loading'));
  const error = useSelector(page, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <StatementView
      meta={PAGE_TITLES['/my/statements/$statementId']}
      statement={statement}
      loading={loading}
      error={error}
      onRetry={() => page.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: source.href(url) })}
      onPrint={() => window.print()}
    />
  );
}
