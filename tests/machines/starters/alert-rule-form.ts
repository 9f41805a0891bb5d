// Starts the alertRuleForm machine with scripted answers and recorded actions: shared by its actor
// tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import type { AlertRuleWire } from '../../../src/domain/alerts';
import type { ActionMode, RuleAction } from '../../../src/domain/automation';
import {
  alertRuleFormMachine,
  type AlertRuleFormInput,
  type SaveRuleInput,
  type SaveRuleOutcome,
  type SubscriptionOutcome,
} from '../../../src/machines/alert-rule-form';
import { ruleWire } from '../../fixtures/alerts';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const usageRule = ruleWire();
export const savedUsageRule = ruleWire({ usageLevels: [75, 100], notifyCustomer: true });

export function startRuleForm(
  input: AlertRuleFormInput = { rule: usageRule, canEdit: true },
  saves: Array<Answer<SaveRuleOutcome>> = [ok(savedUsageRule)],
  subscriptions: Array<Answer<SubscriptionOutcome>> = [ok(ruleWire({ subscribed: true }))],
) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const saved = vi.fn();
  const actor = createActor(
    alertRuleFormMachine.provide({
      actors: {
        saveRule: answer<SaveRuleOutcome, SaveRuleInput>('saveRule', saves),
        saveSubscription: answer<SubscriptionOutcome, { kind: AlertRuleWire['kind']; subscribed: boolean }>('saveSubscription', subscriptions),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        saved: () => saved(),
      },
    }),
    { input },
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, saved };
}

export const enabled = (value: boolean) => ({ type: 'user.enabled', value }) as const;
export const levels = (value: string) => ({ type: 'user.levels', value }) as const;
export const threshold = (value: number | null) => ({ type: 'user.threshold', value }) as const;
export const notifyCustomer = (value: boolean) => ({ type: 'user.notifyCustomer', value }) as const;
export const scope = (value: 'customer' | 'line') => ({ type: 'user.scope', value }) as const;
export const key = (value: string) => ({ type: 'user.key', value }) as const;
export const save = { type: 'user.save' } as const;
export const subscribe = (value: boolean) => ({ type: 'user.subscribe', value }) as const;
export const ownActions = (value: boolean) => ({ type: 'user.ownActions', value }) as const;
export const notifyOnly = (level: number) => ({ type: 'user.notifyOnly', level }) as const;
export const chooseAction = (level: number, action: RuleAction, checked: boolean) => ({ type: 'user.action', level, action, checked }) as const;
export const actionMode = (level: number, action: RuleAction, mode: ActionMode) => ({ type: 'user.mode', level, action, mode }) as const;
export const plan = (level: number, productReferenceId: string) => ({ type: 'user.plan', level, productReferenceId }) as const;
