// Automatic actions through the whole client over a fake portal API at the fetch seam: the
// Automatic actions page (filter, search, Approve / Dismiss / Undo after a question), an alert's
// actions on the Alerts page (Undo), and the customer's alerts (why the line changed).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/domain/auth';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { REVIEW_TITLES, reviewQuestion } from '../../src/ui/automation/actions/ActionReviewDialog';
import { UNRESOLVED_TITLE } from '../../src/ui/my/MyAlertsView';
import { adminProfile, customerProfile, profileWith } from '../machines/fixtures';
import { alertList, alertWire, envelope, refusal } from '../fixtures/alerts';
import { targetText } from '../../src/ui/alerts/parts';
import { actionList, actionSummary, dismissedAction, executedAction, proposedAction } from '../fixtures/automatic-actions';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

const TITLE = AUTOMATION_MESSAGES.actionsPageTitle;
const rows = [proposedAction, executedAction, dismissedAction];

function openActions(answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const posts: string[] = [];
  const decided = (verb: string): FakeAnswer => ({ url }) => {
    posts.push(url.pathname);
    return { body: envelope({ ...proposedAction, status: verb === 'dismiss' ? 'dismissed' : 'executed' }) };
  };
  const api = fakePortalApi(
    {
      'GET /api/v1/automatic-actions': { body: envelope(actionList(rows)) },
      [`POST /api/v1/automatic-actions/${proposedAction.id}/approve`]: decided('approve'),
      [`POST /api/v1/automatic-actions/${proposedAction.id}/dismiss`]: decided('dismiss'),
      [`POST /api/v1/automatic-actions/${executedAction.id}/undo`]: decided('undo'),
      ...answers,
    },
    profile,
  );
  const page = openSignedInAt('/alerts/actions', api.fetch, { profile });
  return { ...page, calls: api.calls, posts };
}

const table = async () => within(await screen.findByRole('table', { name: TITLE }));
const listCalls = (calls: string[]) => calls.filter((c) => c.startsWith('GET /api/v1/automatic-actions'));

describe('Automatic actions page', () => {
  it('lists what the rules proposed or did, waiting first with its count', async () => {
    const { calls } = openActions();
    const list = await table();
    const proposedRow = list.getByText(proposedAction.serviceLineNumber).closest('tr')!;
    expect(within(proposedRow).getByText('Ana Costa')).toBeTruthy();
    expect(within(proposedRow).getByText('Data use rule at 90 %')).toBeTruthy();
    expect(within(proposedRow).getByText('Opt out of priority data')).toBeTruthy();
    expect(within(proposedRow).getByText('Propose to an admin')).toBeTruthy();
    expect(within(proposedRow).getByText('$42.50')).toBeTruthy();
    expect(within(proposedRow).getByText('Waiting for approval')).toBeTruthy();
    const doneRow = list.getByText(executedAction.serviceLineNumber).closest('tr')!;
    expect(within(doneRow).getByText('Move to another plan: Local Priority 1 TB')).toBeTruthy();
    expect(within(doneRow).getByText('Moved to Local Priority 1 TB')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Waiting (1)' })).toBeTruthy();
    expect([...new Set(listCalls(calls))]).toEqual(['GET /api/v1/automatic-actions?status=waiting&page=1&limit=25']);
    // A proposal offers Approve and Dismiss; a done action that can be taken back, Undo; a dismissed one, nothing.
    expect(list.getAllByRole('button', { name: /^(Approve|Dismiss|Undo) / }).map((b) => b.textContent)).toEqual(['Approve', 'Dismiss', 'Undo']);
  });

  it('asks the server for the chosen status and the search once the typing pauses', async () => {
    const { user, calls } = openActions();
    await table();
    await user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('GET /api/v1/automatic-actions?status=all&page=1&limit=25'));
    await user.type(screen.getByLabelText('Search automatic actions'), 'Costa');
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('GET /api/v1/automatic-actions?status=all&search=Costa&page=1&limit=25'));
  });

  it('approves a proposal after asking, says so and reads the list again', async () => {
    const { user, calls, posts } = openActions();
    await user.click((await table()).getByRole('button', { name: `Approve Opt out of priority data on ${proposedAction.serviceLineNumber}` }));
    const dialog = within(await screen.findByRole('dialog', { name: REVIEW_TITLES.approve }));
    expect(dialog.getByText(reviewQuestion('approve', 'opt_out', proposedAction.serviceLineNumber))).toBeTruthy();
    expect(posts).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(AUTOMATION_MESSAGES.approved)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: REVIEW_TITLES.approve })).toBeNull());
    expect(posts).toEqual([`/api/v1/automatic-actions/${proposedAction.id}/approve`]);
    // The list is read again after the decision, with the proposal's new status.
    await waitFor(() => expect(listCalls(calls.slice(calls.findIndex((c) => c.startsWith('POST '))))).toHaveLength(1));
  });

  it("keeps the question open with the server's words when it refuses an undo", async () => {
    const { user } = openActions({
      [`POST /api/v1/automatic-actions/${executedAction.id}/undo`]: { status: 409, body: refusal('The provider refused: the plan change is locked until the next cycle') },
    });
    await user.click((await table()).getByRole('button', { name: `Undo Move to another plan on ${executedAction.serviceLineNumber}` }));
    const dialog = within(await screen.findByRole('dialog', { name: REVIEW_TITLES.undo }));
    expect(dialog.getByText(reviewQuestion('undo', 'change_plan', executedAction.serviceLineNumber))).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Undo' }));
    expect(await dialog.findByText('The provider refused: the plan change is locked until the next cycle')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: REVIEW_TITLES.undo })).toBeTruthy();
  });

  it('a reader without lifecycle changes sees the list and no decision', async () => {
    openActions({}, profileWith(['lifecycle:read']));
    const list = await table();
    expect(list.getByText(proposedAction.serviceLineNumber)).toBeTruthy();
    expect(list.queryAllByRole('button', { name: /^(Approve|Dismiss|Undo) / })).toHaveLength(0);
  });
});

describe('an alert’s automatic actions', () => {
  const acted = alertWire({ automaticActions: [actionSummary()] });

  function openAlerts(profile: AdminUser = adminProfile) {
    const posts: string[] = [];
    const api = fakePortalApi(
      {
        'GET /api/v1/alerts': { body: envelope(alertList([acted])) },
        'GET /api/v1/alerts/bell': { body: envelope({ unread: 0, open: 1, latest: [] }) },
        [`POST /api/v1/automatic-actions/${executedAction.id}/undo`]: ({ url }) => {
          posts.push(url.pathname);
          return { body: envelope({ ...executedAction, status: 'undone', undoable: false }) };
        },
      },
      profile,
    );
    const page = openSignedInAt('/alerts', api.fetch, { profile });
    return { ...page, calls: api.calls, posts };
  }

  it('shows what the rule did with its status, and Undo asks first, then takes it back', async () => {
    const { user, calls, posts } = openAlerts();
    const note = within(await screen.findByRole('list', { name: 'Automatic actions' }));
    expect(note.getByText(actionSummary().text)).toBeTruthy();
    expect(note.getByText('Done')).toBeTruthy();
    await user.click(note.getByRole('button', { name: `Undo Opt out of priority data on ${targetText(acted)}` }));
    const dialog = within(await screen.findByRole('dialog', { name: REVIEW_TITLES.undo }));
    expect(dialog.getByText(reviewQuestion('undo', 'opt_out', acted.serviceLineNumber))).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(AUTOMATION_MESSAGES.undone)).toBeTruthy();
    expect(posts).toEqual([`/api/v1/automatic-actions/${executedAction.id}/undo`]);
    await waitFor(() => expect(calls.slice(calls.findIndex((c) => c.startsWith('POST '))).filter((c) => c.startsWith('GET /api/v1/alerts?'))).toHaveLength(1));
  });

  it('offers no Undo to those who do not manage lifecycles', async () => {
    openAlerts(profileWith(['alerts:manage']));
    const note = within(await screen.findByRole('list', { name: 'Automatic actions' }));
    expect(note.getByText(actionSummary().text)).toBeTruthy();
    expect(note.queryByRole('button')).toBeNull();
  });

  it("tells the customer in their own alerts why the line changed, with no button", async () => {
    const api = fakePortalApi({ 'GET /api/v1/my/alerts': { body: envelope({ alerts: [acted] }) } }, customerProfile);
    openSignedInAt('/my/alerts', api.fetch, { profile: customerProfile });
    const unresolved = within(await screen.findByRole('table', { name: UNRESOLVED_TITLE }));
    expect(unresolved.getByText(actionSummary().text)).toBeTruthy();
    expect(unresolved.queryByText('Done')).toBeNull();
    expect(within(screen.getByRole('main')).queryAllByRole('button')).toHaveLength(0);
  });
});
