// Alert rules (/alerts/rules, admin): the rules (GET /alert-rules), each card an alert rule form
// machine whose effects are provided here (PUT the rule, PUT the admin's own subscription), and
// under each line rule its overrides (GET …/overrides), an add form (the same machine, saving an
// override) and Remove. Only those who manage alerts may change rules; the session knows.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { LINE_ALERT_KINDS, ALERT_MESSAGES, type AlertOverrideWire, type AlertRuleWire } from '../domain/alerts';
import { alertRuleFormMachine } from '../machines/alert-rule-form';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { AlertRulesView, OverridesPanel, RuleCard } from '../ui/alerts/AlertRulesView';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const rulesMachine = createResourceMachine<AlertRuleWire[]>('alertRules');
const overridesMachine = createResourceMachine<AlertOverrideWire[]>('alertOverrides');

const isLineRule = (rule: AlertRuleWire) => (LINE_ALERT_KINDS as readonly string[]).includes(rule.kind);

export function AlertRulesRoute() {
  const { api } = useAppServices();
  const canEdit = useCan('alerts:manage');
  const rules = usePageActor(rulesMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.alerts.rules(signal))) } }));
  const data = useSelector(rules, (s) => s.context.data);
  const error = useSelector(rules, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <AlertRulesView loading={data === null} error={error} canEdit={canEdit} onRetry={() => rules.send({ type: 'user.retry' })}>
      {(data ?? []).map((rule) => (
        <RuleCardRoute key={rule.kind} rule={rule} canEdit={canEdit} />
      ))}
    </AlertRulesView>
  );
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

function RuleCardRoute({ rule, canEdit }: { rule: AlertRuleWire; canEdit: boolean }) {
  const form = useRuleForm(rule, canEdit, 'rule', () => {});
  const { context, busy, saved, switching } = useFormState(form);
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
      {isLineRule(rule) && <OverridesRoute rule={rule} canEdit={canEdit} />}
    </RuleCard>
  );
}

function OverridesRoute({ rule, canEdit }: { rule: AlertRuleWire; canEdit: boolean }) {
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
