// Starts the ruleActions machine with scripted saves and recorded actions: shared by its actor
// tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import type { ActionMode, RuleAction } from '../../../src/domain/automation';
import { ruleActionsMachine, type RuleActionsInput, type SaveActionsInput, type SaveActionsOutcome } from '../../../src/machines/rule-actions';
import { ruleWire } from '../../fixtures/alerts';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

/** The data use rule at 80, 90 and 100 %, notifying only. */
export const usageRule = ruleWire();
export const PLAN = 'SUB-METERED-1TB';

export function startRuleActions(input: RuleActionsInput = { rule: usageRule, canEdit: true }, saves: Array<Answer<SaveActionsOutcome>> = [ok(usageRule)]) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const actor = createActor(
    ruleActionsMachine.provide({
      actors: { saveActions: answer<SaveActionsOutcome, SaveActionsInput>('saveActions', saves) },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
      },
    }),
    { input },
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure };
}

export const notifyOnly = (level: number) => ({ type: 'user.notifyOnly', level }) as const;
export const choose = (level: number, action: RuleAction, checked = true) => ({ type: 'user.action', level, action, checked }) as const;
export const mode = (level: number, action: RuleAction, value: ActionMode) => ({ type: 'user.mode', level, action, mode: value }) as const;
export const plan = (level: number, productReferenceId = PLAN) => ({ type: 'user.plan', level, productReferenceId }) as const;
export const save = { type: 'user.save' } as const;
export const ruleLevels = (levels: number[]) => ({ type: 'rule.levels', levels }) as const;
