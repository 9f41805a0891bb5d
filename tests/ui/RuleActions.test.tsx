// A rule's automatic actions on the Alert rules page, through the whole client over a fake portal
// API at the fetch seam: the rows per level, choosing actions and a plan, saving, the problem
// before sending, the server's refusal, and the read-only view.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/domain/auth';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { NOTIFY_ONLY, PLAN_LABEL, SAVE_ACTIONS, actionsFormName, levelName } from '../../src/ui/alerts/RuleActionsEditor';
import { adminProfile, userProfile } from '../machines/fixtures';
import { envelope, refusal, ruleWire } from '../fixtures/alerts';
import { rulePlans } from '../fixtures/automatic-actions';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

const usageRule = ruleWire();
const overageRule = ruleWire({ kind: 'overage_forecast', usageLevels: null, threshold: 25, actions: [{ level: 0, action: 'opt_out', mode: 'act', productReferenceId: null }] });

function openRules(answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const bodies: unknown[] = [];
  const api = fakePortalApi(
    {
      'GET /api/v1/alert-rules': { body: envelope([usageRule, overageRule]) },
      'GET /api/v1/alert-rules/usage/overrides': { body: envelope([]) },
      'GET /api/v1/alert-rules/overage_forecast/overrides': { body: envelope([]) },
      'GET /api/v1/subscriptions/plans': { body: envelope(rulePlans) },
      'PUT /api/v1/alert-rules/usage/actions': ({ body }) => {
        bodies.push(body);
        return { body: envelope({ ...usageRule, ...(body as object) }) };
      },
      ...answers,
    },
    profile,
  );
  const page = openSignedInAt('/alerts/rules', api.fetch, { profile });
  return { ...page, bodies };
}

const editor = async (kind: 'usage' | 'overage_forecast') => within(await screen.findByRole('form', { name: actionsFormName(kind) }));
const choice = (form: ReturnType<typeof within>, label: string, level: string) => within(form.getByRole('group', { name: `${label}, ${level}` }));

describe('rule actions on the Alert rules page', () => {
  it('shows a row per usage level, notifying only, and the projected overage rule its one row as saved', async () => {
    openRules();
    const usage = await editor('usage');
    for (const level of [80, 90, 100]) {
      expect((within(usage.getByRole('group', { name: levelName('usage', level) })).getByLabelText(NOTIFY_ONLY) as HTMLInputElement).checked).toBe(true);
    }
    const overage = await editor('overage_forecast');
    const optOut = choice(overage, 'Opt out of priority data', levelName('overage_forecast', 0));
    expect((optOut.getByLabelText('Opt out of priority data') as HTMLInputElement).checked).toBe(true);
    expect((optOut.getByLabelText('Act, then notify') as HTMLInputElement).checked).toBe(true);
  });

  it('saves an action at 90 % taken at once and a plan move at 100 % once its plan is chosen', async () => {
    const { user, bodies } = openRules();
    const usage = await editor('usage');
    const optOut = choice(usage, 'Opt out of priority data', 'At 90 %');
    await user.click(optOut.getByLabelText('Opt out of priority data'));
    await user.click(optOut.getByLabelText('Act, then notify'));
    const move = choice(usage, 'Move to another plan', 'At 100 %');
    await user.click(move.getByLabelText('Move to another plan'));
    await user.click(usage.getByRole('button', { name: SAVE_ACTIONS }));
    // Without its plan the move is not sent: the problem shows instead.
    expect(await usage.findByText(AUTOMATION_MESSAGES.planRequired)).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.click(move.getByRole('combobox', { name: PLAN_LABEL }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Local Priority 1 TB' }));
    await user.click(usage.getByRole('button', { name: SAVE_ACTIONS }));
    expect(await usage.findByText(AUTOMATION_MESSAGES.actionsSaved)).toBeTruthy();
    expect(bodies).toEqual([
      {
        actions: [
          { level: 90, action: 'opt_out', mode: 'act', productReferenceId: null },
          { level: 100, action: 'change_plan', mode: 'propose', productReferenceId: 'SUB-METERED-1TB' },
        ],
      },
    ]);
  });

  it("shows the server's words when some lines' plans cannot take the action", async () => {
    const words = AUTOMATION_MESSAGES.linesCannotTake('stop_recurring_blocks', ['AST-100001-00001-01'], 1);
    const { user } = openRules({ 'PUT /api/v1/alert-rules/usage/actions': { status: 400, body: refusal(words) } });
    const usage = await editor('usage');
    await user.click(choice(usage, 'Stop recurring blocks from the next cycle', 'At 80 %').getByLabelText('Stop recurring blocks from the next cycle'));
    await user.click(usage.getByRole('button', { name: SAVE_ACTIONS }));
    expect(await usage.findByText(words)).toBeTruthy();
  });

  it('a reader sees the actions and cannot change or save them', async () => {
    openRules({}, userProfile);
    const overage = await editor('overage_forecast');
    expect((choice(overage, 'Opt out of priority data', levelName('overage_forecast', 0)).getByLabelText('Opt out of priority data') as HTMLInputElement).disabled).toBe(true);
    expect(overage.queryByRole('button', { name: SAVE_ACTIONS })).toBeNull();
  });
});
