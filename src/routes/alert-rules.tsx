// Alert rules (/alerts/rules, admin): the rules (GET /alert-rules), each card an alert rule form
// machine whose effects are provided here (PUT the rule, PUT the admin's own subscription), and
// under each line rule its overrides (GET …/overrides), an add form (the same machine, saving an
// override) and Remove. Only those who manage alerts may change rules; the session knows. The data
// use and projected overage cards also hold the rule's automatic actions (a rule actions machine
// each, saving with PUT …/actions), whose "Move to another plan" offers the plans of GET
// /subscriptions/plans, read once for the page when such a card is shown; their overrides may carry
// actions of their own, saved with the override.
import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { LINE_ALERT_KINDS, ALERT_MESSAGES, parseUsageLevels, type AlertOverrideWire, type AlertRuleWire } from '../domain/alerts';
import { ACTION_ALERT_KINDS } from '../domain/automation';
import type { SubscriptionPlanWire } from '../domain/subscriptions';
import { alertRuleFormMachine, hasOverrideActions, overrideActionLevels, overrideActions } from '../machines/alert-rule-form';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { ruleActionsMachine } from '../machines/rule-actions';
import { AlertRulesView, OverridesPanel, RuleCard } from '../ui/alerts/AlertRulesView';
import { RuleActionsEditor } from '../ui/alerts/RuleActionsEditor';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const rulesMachine = createResourceMachine<AlertRuleWire[]>('alertRules');
const overridesMachine = createResourceMachine<AlertOverrideWire[]>('alertOverrides');
const plansMachine = createResourceMachine<SubscriptionPlanWire[]>('rulePlans');

const isLineRule = (rule: AlertRuleWire) => (LINE_ALERT_KINDS as readonly string[]).includes(rule.kind);
const isActionRule = (rule: AlertRuleWire) => (ACTION_ALERT_KINDS as readonly string[]).includes(rule.kind);

/** The plans "Move to another plan" offers: null until they are in; `failed` when they cannot be. */
interface PlanChoices {
  plans: SubscriptionPlanWire[] | null;
  failed: boolean;
}
const NO_PLANS: PlanChoices = { plans: null, failed: false };

export function AlertRulesRoute() {
  const { api } = useAppServices();
  const canEdit = useCan('alerts:manage');
  const rules = usePageActor(rulesMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.alerts.rules(signal))) } }));
  const data = useSelector(rules, (s) => s.context.data);
  const error = useSelector(rules, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <AlertRulesView loading={data === null} error={error} canEdit={canEdit} onRetry={() => rules.send({ type: 'user.retry' })}>
      {data && (data.some(isActionRule) ? <CardsWithPlans rules={data} canEdit={canEdit} /> : <Cards rules={data} canEdit={canEdit} plans={NO_PLANS} />)}
    </AlertRulesView>
  );
}

function Cards({ rules, canEdit, plans }: { rules: AlertRuleWire[]; canEdit: boolean; plans: PlanChoices }) {
  return rules.map((rule) => <RuleCardRoute key={rule.kind} rule={rule} canEdit={canEdit} plans={plans} />);
}

/** The cards, and the plans their actions may move a line to (read once for every card). */
function CardsWithPlans({ rules, canEdit }: { rules: AlertRuleWire[]; canEdit: boolean }) {
  const { api } = useAppServices();
  const loaded = usePageActor(plansMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.subscriptions.plans(signal))) } }));
  const plans = useSelector(loaded, (s) => s.context.data);
  const failed = useSelector(loaded, (s) => s.matches('failed'));
  return <Cards rules={rules} canEdit={canEdit} plans={{ plans, failed }} />;
}

function useRuleForm(rule: AlertRuleWire, canEdit: boolean, target: 'rule' | 'override', saved: () => void) {
  const { api } = useAppServices();
  return usePageActor(
    alertRuleFormMachine.provide({
      actors: {
        saveRule: fromPromise(({ input, signal }) =>
          outcome<AlertRuleWire | AlertOverrideWire>(() =>
            input.target === 'rule' ? api.alerts.saveRule(input.kind, input.payload, signal) : api.alerts.saveOverride(input.kind, input.payload, signal),
          ),
        ),
        saveSubscription: fromPromise(({ input, signal }) => outcome(() => api.alerts.subscribe(input.kind, input.subscribed, signal))),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: `alert-rule-${rule.kind}` }),
        notifyFailure: (_, message) => void toast.error(message, { id: `alert-rule-${rule.kind}` }),
        saved,
      },
    }),
    { input: { rule, canEdit, target: { type: target } } },
  );
}

function useFormState(form: ActorRefFrom<typeof alertRuleFormMachine>) {
  return {
    context: useSelector(form, (s) => s.context),
    busy: useSelector(form, (s) => s.hasTag('busy')),
    saved: useSelector(form, (s) => s.matches({ form: 'saved' })),
    switching: useSelector(form, (s) => s.hasTag('switching')),
  };
}

function RuleCardRoute({ rule, canEdit, plans }: { rule: AlertRuleWire; canEdit: boolean; plans: PlanChoices }) {
  const form = useRuleForm(rule, canEdit, 'rule', () => {});
  const { context, busy, saved, switching } = useFormState(form);
  // The levels the server kept, once the rule's form saved them: the actions' rows follow them.
  const savedLevels = useSelector(form, (s) => (s.matches({ form: 'saved' }) && s.context.kind === 'usage' ? s.context.levels : null));
  return (
    <RuleCard
      kind={rule.kind}
      canEdit={canEdit}
      enabled={context.enabled}
      levels={context.levels}
      threshold={context.threshold}
      notifyCustomer={context.notifyCustomer}
      errors={context.errors}
      busy={busy}
      saved={saved}
      failure={context.failure}
      subscribed={context.subscribed}
      switching={switching}
      onEnabled={(value) => form.send({ type: 'user.enabled', value })}
      onLevels={(value) => form.send({ type: 'user.levels', value })}
      onThreshold={(value) => form.send({ type: 'user.threshold', value })}
      onNotifyCustomer={(value) => form.send({ type: 'user.notifyCustomer', value })}
      onSave={() => form.send({ type: 'user.save' })}
      onSubscribe={(value) => form.send({ type: 'user.subscribe', value })}
    >
      {isActionRule(rule) && <RuleActionsRoute rule={rule} canEdit={canEdit} plans={plans} savedLevels={savedLevels} />}
      {isLineRule(rule) && <OverridesRoute rule={rule} canEdit={canEdit} plans={plans} />}
    </RuleCard>
  );
}

function RuleActionsRoute({ rule, canEdit, plans, savedLevels }: { rule: AlertRuleWire; canEdit: boolean; plans: PlanChoices; savedLevels: string | null }) {
  const { api } = useAppServices();
  const actions = usePageActor(
    ruleActionsMachine.provide({
      actors: { saveActions: fromPromise(({ input, signal }) => outcome(() => api.alerts.saveActions(input.kind, input.actions, signal))) },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: `rule-actions-${rule.kind}` }),
        notifyFailure: (_, message) => void toast.error(message, { id: `rule-actions-${rule.kind}` }),
      },
    }),
    { input: { rule, canEdit } },
  );
  useEffect(() => {
    const levels = savedLevels === null ? null : parseUsageLevels(savedLevels);
    if (levels) actions.send({ type: 'rule.levels', levels });
  }, [actions, savedLevels]);
  const context = useSelector(actions, (s) => s.context);
  const busy = useSelector(actions, (s) => s.hasTag('busy'));
  const saved = useSelector(actions, (s) => s.matches('saved'));
  return (
    <RuleActionsEditor
      kind={rule.kind}
      levels={context.levels}
      actions={context.actions}
      plans={plans.plans}
      plansFailed={plans.failed}
      canEdit={canEdit}
      busy={busy}
      saved={saved}
      problem={context.problem}
      failure={context.failure}
      onNotifyOnly={(level) => actions.send({ type: 'user.notifyOnly', level })}
      onAction={(level, action, checked) => actions.send({ type: 'user.action', level, action, checked })}
      onMode={(level, action, mode) => actions.send({ type: 'user.mode', level, action, mode })}
      onPlan={(level, productReferenceId) => actions.send({ type: 'user.plan', level, productReferenceId })}
      onSave={() => actions.send({ type: 'user.save' })}
    />
  );
}

function OverridesRoute({ rule, canEdit, plans }: { rule: AlertRuleWire; canEdit: boolean; plans: PlanChoices }) {
  const { api } = useAppServices();
  const list = usePageActor(overridesMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.alerts.overrides(rule.kind, signal))) } }));
  const reload = () => list.send(reloadEvent(list.getSnapshot()));
  const form = useRuleForm(rule, canEdit, 'override', reload);
  const { context, busy } = useFormState(form);
  const overrides = useSelector(list, (s) => s.context.data);
  const error = useSelector(list, (s) => (s.matches('failed') ? s.context.error : null));
  const [removing, setRemoving] = useState<string | null>(null);

  // One call and a reload: nothing to confirm or go back to, so no machine of its own.
  const remove = async (override: AlertOverrideWire) => {
    setRemoving(`${override.scope}/${override.key}`);
    try {
      const result = await outcome(() => api.alerts.removeOverride(rule.kind, override.scope, override.key));
      if (result.ok) toast.success(ALERT_MESSAGES.overrideRemoved, { id: `alert-override-${rule.kind}` });
      else toast.error(result.message, { id: `alert-override-${rule.kind}` });
      reload();
    } finally {
      setRemoving(null);
    }
  };

  return (
    <OverridesPanel
      kind={rule.kind}
      overrides={overrides}
      error={error}
      canEdit={canEdit}
      removing={removing}
      onRetry={() => list.send({ type: 'user.retry' })}
      onRemove={(override) => void remove(override)}
      form={
        canEdit
          ? {
              kind: rule.kind,
              scope: context.scope,
              keyText: context.key,
              enabled: context.enabled,
              levels: context.levels,
              threshold: context.threshold,
              errors: context.errors,
              actions: hasOverrideActions(context)
                ? {
                    actions: overrideActions(context),
                    levels: overrideActionLevels(context),
                    plans: plans.plans,
                    plansFailed: plans.failed,
                    problem: context.errors.actions,
                    onOwn: (value) => form.send({ type: 'user.ownActions', value }),
                    onNotifyOnly: (level) => form.send({ type: 'user.notifyOnly', level }),
                    onAction: (level, action, checked) => form.send({ type: 'user.action', level, action, checked }),
                    onMode: (level, action, mode) => form.send({ type: 'user.mode', level, action, mode }),
                    onPlan: (level, productReferenceId) => form.send({ type: 'user.plan', level, productReferenceId }),
                  }
                : null,
              busy,
              failure: context.failure,
              onScope: (value) => form.send({ type: 'user.scope', value }),
              onKey: (value) => form.send({ type: 'user.key', value }),
              onEnabled: (value) => form.send({ type: 'user.enabled', value }),
              onLevels: (value) => form.send({ type: 'user.levels', value }),
              onThreshold: (value) => form.send({ type: 'user.threshold', value }),
              onSave: () => form.send({ type: 'user.save' }),
            }
          : null
      }
    />
  );
}
