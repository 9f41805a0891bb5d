// The Alert rules page through the whole client (router, session, rule form machines, views) over
// a fake portal API at the fetch seam: validation, save, the admin's own emails, overrides and
// their own actions.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ALERT_MESSAGES } from '../../src/domain/alerts';
import type { AdminUser } from '../../src/domain/auth';
import { OVERRIDE_KEY_REQUIRED } from '../../src/machines/alert-rule-form';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { AS_THE_RULE, ADMIN_ONLY_NOTE, OWN_ACTIONS, RULES_LOAD_FAILED } from '../../src/ui/alerts/AlertRulesView';
import { NOTIFY_ONLY } from '../../src/ui/alerts/RuleActionsEditor';
import { adminProfile, userProfile } from '../machines/fixtures';
import { alertRules, envelope, lineOverride, refusal, ruleWire } from '../fixtures/alerts';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

function openRules(answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const bodies: Array<[string, unknown]> = [];
  const record = (key: string, answer: (body: unknown) => { status?: number; body: unknown }): FakeAnswer => ({ body }) => {
    bodies.push([key, body]);
    return answer(body);
  };
  const api = fakePortalApi(
    {
      'GET /api/v1/alert-rules': { body: envelope(alertRules) },
      'GET /api/v1/alert-rules/usage/overrides': { body: envelope([lineOverride]) },
      'GET /api/v1/alert-rules/overage_forecast/overrides': { body: envelope([]) },
      'GET /api/v1/alert-rules/offline/overrides': { body: envelope([]) },
      'PUT /api/v1/alert-rules/usage': record('usage', (body) => ({ body: envelope({ ...ruleWire(), ...(body as object) }) })),
      'PUT /api/v1/alert-rules/offline/subscription': record('subscription', (body) => ({ body: envelope(ruleWire({ kind: 'offline', usageLevels: null, threshold: 60, ...(body as object) })) })),
      'PUT /api/v1/alert-rules/usage/overrides': record('override', (body) => ({ body: envelope({ ...lineOverride, ...(body as object) }) })),
      'DELETE /api/v1/alert-rules/usage/overrides/line/AST-100001-00001-01': record('remove', () => ({ body: envelope(null) })),
      ...answers,
    },
    profile,
  );
  const page = openSignedInAt('/alerts/rules', api.fetch, { profile });
  return { ...page, calls: api.calls, bodies };
}

const card = (name: string) => within(screen.getByRole('form', { name: `${name} rule` }));

describe('Alert rules page', () => {
  it('shows one card per rule with its levels or threshold', async () => {
    openRules();
    await screen.findByRole('form', { name: 'Data use rule' });
    expect((card('Data use').getByLabelText('Usage levels (% of the plan)') as HTMLInputElement).value).toBe('80, 90, 100');
    expect((card('Terminal offline').getByLabelText('Threshold (minutes offline)') as HTMLInputElement).value).toBe('60');
    expect(screen.getAllByRole('form', { name: /^(?!Add ).* rule$/ })).toHaveLength(5);
    // The overrides of the line rules, listed under them, with whose actions they take.
    const row = within(await screen.findByRole('row', { name: /Line Barn dish \(AST-100001-00001-01\)/ }));
    expect(row.getByRole('cell', { name: 'At 50, 75 %' })).toBeTruthy();
    expect(row.getByRole('cell', { name: AS_THE_RULE })).toBeTruthy();
  });

  it('shows the problem under the levels and sends nothing, then saves what was fixed', async () => {
    const { user, bodies } = openRules();
    await screen.findByRole('form', { name: 'Data use rule' });
    const levels = card('Data use').getByLabelText('Usage levels (% of the plan)');
    await user.clear(levels);
    await fill(user, levels, '80, 80');
    await user.click(card('Data use').getByRole('button', { name: 'Save' }));
    expect(await card('Data use').findByText(ALERT_MESSAGES.levelsRepeated)).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.clear(levels);
    await fill(user, levels, '75, 95');
    await user.click(card('Data use').getByLabelText('Also email the customer'));
    await user.click(card('Data use').getByRole('button', { name: 'Save' }));
    expect(await card('Data use').findByText(ALERT_MESSAGES.ruleSaved)).toBeTruthy();
    expect(bodies).toEqual([['usage', { enabled: true, usageLevels: [75, 95], threshold: null, notifyCustomer: true }]]);
  });

  it("says the rules could not be loaded, in the server's words, and Try Again loads them", async () => {
    let asked = 0;
    const { user } = openRules({
      'GET /api/v1/alert-rules': () => (++asked === 1 ? { status: 503, body: refusal('The database is busy') } : { body: envelope(alertRules) }),
    });
    expect(await screen.findByText(RULES_LOAD_FAILED)).toBeTruthy();
    expect(screen.getByText('The database is busy')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Data use rule' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByRole('form', { name: 'Data use rule' });
    expect(screen.queryByText(RULES_LOAD_FAILED)).toBeNull();
  });

  it("shows the server's refusal beside Save", async () => {
    const { user } = openRules({ 'PUT /api/v1/alert-rules/usage': { status: 403, body: refusal('Only administrators may change alert rules') } });
    await screen.findByRole('form', { name: 'Data use rule' });
    await user.click(card('Data use').getByRole('button', { name: 'Save' }));
    expect(await card('Data use').findByText('Only administrators may change alert rules')).toBeTruthy();
  });

  it('a portal user without the admin role sees the rules read-only but may flip their own emails', async () => {
    const { user, bodies } = openRules({}, userProfile);
    await screen.findByRole('form', { name: 'Data use rule' });
    expect(screen.getByText(ADMIN_ONLY_NOTE)).toBeTruthy();
    expect((card('Data use').getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /^Remove the override/ })).toBeNull();
    const offline = screen.getAllByLabelText('Email me')[2] as HTMLInputElement;
    expect(offline.checked).toBe(true);
    await user.click(offline);
    await waitFor(() => expect(bodies).toEqual([['subscription', { subscribed: false }]]));
  });

  it('adds an override for a line after asking for its number, and removes one', async () => {
    const { user, bodies, calls } = openRules();
    const form = within(await screen.findByRole('form', { name: 'Add an override of the Data use rule' }));
    await user.click(form.getByRole('button', { name: 'Add override' }));
    expect(await form.findByText(OVERRIDE_KEY_REQUIRED)).toBeTruthy();
    await fill(user, form.getByLabelText('Service line number'), 'AST-9');
    await user.clear(form.getByLabelText('Usage levels (% of the plan)'));
    await fill(user, form.getByLabelText('Usage levels (% of the plan)'), '60');
    await user.click(form.getByRole('button', { name: 'Add override' }));
    await waitFor(() => expect(bodies).toEqual([['override', { scope: 'line', key: 'AST-9', enabled: true, usageLevels: [60], threshold: null, actions: null }]]));
    const reads = () => calls.filter((c) => c === 'GET /api/v1/alert-rules/usage/overrides').length;
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(2));
    const before = reads();
    await user.click(screen.getByRole('button', { name: `Remove the override for ${lineOverride.key}` }));
    await waitFor(() => expect(bodies.map(([k]) => k)).toContain('remove'));
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
  });

  it('adds an override with its own actions on its own levels, and lists what each override does', async () => {
    const notifyOnly = { ...lineOverride, key: 'AST-8', label: null, actions: [] };
    let listed = [lineOverride, notifyOnly];
    const { user, bodies } = openRules({
      'GET /api/v1/alert-rules/usage/overrides': () => ({ body: envelope(listed) }),
      'PUT /api/v1/alert-rules/usage/overrides': ({ body }) => {
        bodies.push(['override', body]);
        listed = [lineOverride, notifyOnly, { ...lineOverride, key: 'AST-9', label: null, ...(body as object) }];
        return { body: envelope(listed[2]) };
      },
    });
    const form = within(await screen.findByRole('form', { name: 'Add an override of the Data use rule' }));
    expect(within(await screen.findByRole('row', { name: /Line AST-8/ })).getByRole('cell', { name: NOTIFY_ONLY })).toBeTruthy();
    await fill(user, form.getByLabelText('Service line number'), 'AST-9');
    await user.clear(form.getByLabelText('Usage levels (% of the plan)'));
    await fill(user, form.getByLabelText('Usage levels (% of the plan)'), '60, 95');
    expect(form.queryByRole('group', { name: 'At 60 %' })).toBeNull();
    await user.click(form.getByRole('button', { name: OWN_ACTIONS }));
    // The override's levels, not the rule's: a row each, notifying only.
    expect(form.queryByRole('group', { name: 'At 80 %' })).toBeNull();
    expect((within(form.getByRole('group', { name: 'At 95 %' })).getByLabelText(NOTIFY_ONLY) as HTMLInputElement).checked).toBe(true);
    const block = within(form.getByRole('group', { name: "Block the customer's portal sign-in, At 60 %" }));
    await user.click(block.getByLabelText("Block the customer's portal sign-in"));
    await user.click(block.getByLabelText('Act, then notify'));
    await user.click(within(form.getByRole('group', { name: 'Move to another plan, At 95 %' })).getByLabelText('Move to another plan'));
    await user.click(form.getByRole('button', { name: 'Add override' }));
    // The plan move has no plan yet: nothing is sent until it is dropped.
    expect(await form.findByText(AUTOMATION_MESSAGES.planRequired)).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.click(within(form.getByRole('group', { name: 'At 95 %' })).getByLabelText(NOTIFY_ONLY));
    await user.click(form.getByRole('button', { name: 'Add override' }));
    await waitFor(() =>
      expect(bodies).toEqual([
        ['override', { scope: 'line', key: 'AST-9', enabled: true, usageLevels: [60, 95], threshold: null, actions: [{ level: 60, action: 'block_sign_in', mode: 'act', productReferenceId: null }] }],
      ]),
    );
    const row = within(await screen.findByRole('row', { name: /Line AST-9/ }));
    expect(row.getByRole('cell', { name: "Block the customer's portal sign-in at 60 %" })).toBeTruthy();
  });
});
