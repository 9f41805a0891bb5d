// Terminal Details → Settings: the terminal's service line as the provider holds it (name, plan,
// status, public IP, priority data, recurring data blocks, top-ups, partial periods) and the
// changes it takes that the user's permissions allow, each in a dialog. Renders props and calls callbacks: which
// actions are offered and which dialog step shows are the route's reading of the line-settings
// machine (`offered`, `step`, `busy`); nothing here decides what the line allows.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import { Tag } from 'primereact/tag';
import {
  DEACTIVATION_REASON_MAX_LENGTH,
  MAX_RECURRING_BLOCKS,
  NICKNAME_MAX_LENGTH,
  endsOnLabel,
  topUpPrice,
  type DataProductWire,
  type DeactivationWhen,
  type RecurringBlocksWire,
  type RouterWire,
  type ServiceLineSettingsWire,
} from '../../../domain/service-lines';
import { ErrorCard } from '../../common/ErrorCard';
import { CustomerDialog } from '../../customers/CustomerDialog';
import { FormField, fieldA11y } from '../../customers/CustomerCreateDialog';
import '../../customers/customers.css';
import { calendarDay, count, DASH } from '../format';
import { Fields, Section } from './parts';

export const LINE_SETTINGS_TEXTS = {
  loading: 'Loading service line settings...',
  loadFailedTitle: 'Service line settings unavailable',
  rename: 'Rename',
  enablePublicIp: 'Enable Public IP',
  disablePublicIp: 'Disable Public IP',
  priorityOn: 'Turn On Priority Data',
  priorityOff: 'Turn Off Priority Data',
  editBlocks: 'Change Recurring Blocks',
  topUp: 'Buy Top-Up',
  deactivate: 'Deactivate Service Line',
  schedule: 'Schedule…',
  readOnly: 'Your roles do not allow changes to this service line.',
  renameHeader: 'Rename Service Line',
  publicIpHeader: 'Public IP',
  priorityHeader: 'Priority Data',
  blocksHeader: 'Recurring Data Blocks',
  topUpHeader: 'Buy Top-Up',
  deactivateHeader: 'Deactivate Service Line',
  save: 'Save',
  saving: 'Saving...',
  cancel: 'Cancel',
  back: 'Back',
  continue: 'Continue',
  updateBlocks: 'Update Blocks',
  updating: 'Updating...',
  buy: 'Buy Top-Up',
  buying: 'Buying...',
  confirmDeactivate: 'Deactivate',
  deactivating: 'Deactivating...',
  turnOn: 'Turn On',
  turnOff: 'Turn Off',
  enable: 'Enable',
  disable: 'Disable',
  equipmentTitle: 'Terminals and Routers',
  noTerminals: 'No terminals are on this line.',
  move: 'Move',
  moveHeader: 'Move Terminal',
  moveAction: 'Move Terminal',
  moving: 'Moving...',
  remove: 'Remove from Line',
  removeHeader: 'Remove from Line',
  removeAction: 'Remove',
  removing: 'Removing...',
  rebootRouter: 'Reboot Router',
  rebootRouterHeader: 'Reboot Router',
  reboot: 'Reboot',
  rebooting: 'Rebooting...',
  routerConfig: 'Router Config',
  routerConfigHeader: 'Router Configuration',
  assign: 'Assign',
  defaultConfig: 'Account default',
} as const;

/** The dialog step open now, as the route reads it from the machine. */
export type LineSettingsStep =
  | { kind: 'none' }
  | { kind: 'rename'; nickname: string; error: string | null }
  | { kind: 'publicIp' }
  | { kind: 'priority' }
  | { kind: 'blocks'; step: 'edit' | 'confirm'; productId: string; count: number; applyNow: boolean }
  | { kind: 'topUp'; step: 'choose' | 'confirm'; count: number }
  | { kind: 'deactivate'; step: 'form' | 'confirm'; when: DeactivationWhen | ''; reason: string; errors: Partial<Record<'when' | 'reason', string>> }
  | { kind: 'move'; deviceId: string; target: string; error: string | null }
  | { kind: 'remove'; deviceId: string }
  | { kind: 'routerReboot'; routerId: string }
  | { kind: 'routerConfig'; routerId: string; configId: string };

export interface LineSettingsOffered {
  rename: boolean;
  publicIp: boolean;
  priority: boolean;
  blocks: boolean;
  topUp: boolean;
  deactivate: boolean;
  /** Move and Remove beside each terminal of the line. */
  terminals: boolean;
  /** Reboot Router beside each router. */
  routers: boolean;
  /** Router Config beside each router. */
  routerConfig: boolean;
}

export interface SettingsTabProps {
  loading: boolean;
  /** Why the settings could not be loaded (with Try Again); null unless they failed. */
  loadError: string | null;
  settings: ServiceLineSettingsWire | null;
  /** The actions the user is offered now: only those the user's permissions allow. */
  offered: LineSettingsOffered;
  step: LineSettingsStep;
  /** The open step's request runs: its dialog cannot be closed or changed. */
  busy: boolean;
  /** Why the open step's last request failed, in the server's words. */
  failure: string | null;
  now: number;
  onRetry(): void;
  /** Schedule a change of the line for later (absent: not offered). */
  onSchedule?: () => void;
  onRename(): void;
  onTogglePublicIp(): void;
  onTogglePriority(): void;
  onEditBlocks(): void;
  onTopUp(): void;
  onDeactivate(): void;
  onMove(deviceId: string): void;
  onRemove(deviceId: string): void;
  onRebootRouter(routerId: string): void;
  onRouterConfig(routerId: string): void;
  onTarget(value: string): void;
  onConfigId(configId: string): void;
  onNickname(value: string): void;
  onBlockProduct(productId: string): void;
  onBlockCount(count: number): void;
  onApplyNow(value: boolean): void;
  onTopUpCount(count: number): void;
  onWhen(when: DeactivationWhen): void;
  onReason(value: string): void;
  onSubmit(): void;
  onConfirm(): void;
  onBack(): void;
  onClose(): void;
}

/** 1 TB = 1,000 GB, as the provider counts. */
export const dataText = (gb: number) => (gb >= 1000 ? `${count(gb / 1000)} TB` : `${count(gb)} GB`);
export const priceText = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;
const blocksWord = (n: number) => (n === 1 ? '1 block' : `${count(n)} blocks`);
const productOf = (settings: ServiceLineSettingsWire, productId: string) => settings.blockProducts.find((p) => p.productId === productId) ?? null;

function blocksText(settings: ServiceLineSettingsWire, blocks: RecurringBlocksWire | null): string {
  if (!blocks || blocks.count === 0) return 'None';
  const product = productOf(settings, blocks.productId);
  return product ? `${blocksWord(blocks.count)} of ${dataText(product.dataGB)} (${dataText(blocks.dataGB)})` : `${blocksWord(blocks.count)} (${dataText(blocks.dataGB)})`;
}

const lineName = (settings: ServiceLineSettingsWire) => settings.nickname ?? settings.serviceLineNumber;

function ActionButton(props: { show: boolean; label: string; icon: string; onClick(): void; severity?: 'danger' }) {
  if (!props.show) return null;
  return <Button type="button" label={props.label} icon={props.icon} size="small" outlined {...(props.severity ? { severity: props.severity } : {})} onClick={props.onClick} />;
}

function StatusText({ settings, now }: { settings: ServiceLineSettingsWire; now: number }) {
  const ends = endsOnLabel(settings.endDate, new Date(now));
  return (
    <span className="line-status">
      <Tag value={settings.active ? 'Active' : 'Inactive'} severity={settings.active ? 'success' : 'danger'} />
      {ends && <span className="line-ends"> {ends}</span>}
    </span>
  );
}

function Overview(props: SettingsTabProps & { settings: ServiceLineSettingsWire }) {
  const { settings: s, offered } = props;
  const anyOffered = Object.values(offered).some(Boolean) || props.onSchedule !== undefined;
  return (
    <>
      <Section title="Service Line">
        <Fields
          items={[
            ['Name', s.nickname ?? DASH],
            ['Service Line Number', s.serviceLineNumber],
            ['Plan', s.planName ?? (s.productReferenceId || DASH)],
            ['Status', <StatusText key="status" settings={s} now={props.now} />],
          ]}
        />
        <div className="terminal-actions">
          <ActionButton show={offered.rename} label={LINE_SETTINGS_TEXTS.rename} icon="pi pi-pencil" onClick={props.onRename} />
          {props.onSchedule && <ActionButton show label={LINE_SETTINGS_TEXTS.schedule} icon="pi pi-calendar-clock" onClick={props.onSchedule} />}
        </div>
      </Section>
      <Section title="Connectivity">
        <Fields
          items={[
            ['Public IP', s.publicIp ? 'Enabled' : 'Disabled'],
            ['Priority Data Past the Limit', s.optedIn ? 'On' : 'Off'],
          ]}
        />
        <div className="terminal-actions">
          <ActionButton
            show={offered.publicIp}
            label={s.publicIp ? LINE_SETTINGS_TEXTS.disablePublicIp : LINE_SETTINGS_TEXTS.enablePublicIp}
            icon="pi pi-globe"
            onClick={props.onTogglePublicIp}
          />
          <ActionButton
            show={offered.priority}
            label={s.optedIn ? LINE_SETTINGS_TEXTS.priorityOff : LINE_SETTINGS_TEXTS.priorityOn}
            icon="pi pi-bolt"
            onClick={props.onTogglePriority}
          />
        </div>
      </Section>
      {s.planKind === 'blocks' && (
        <Section title="Recurring Data Blocks">
          <Fields
            items={[
              ['This Cycle', blocksText(s, s.recurringBlocks)],
              ['Next Cycle', blocksText(s, s.nextRecurringBlocks ?? s.recurringBlocks)],
            ]}
          />
          <div className="terminal-actions">
            <ActionButton show={offered.blocks} label={LINE_SETTINGS_TEXTS.editBlocks} icon="pi pi-sync" onClick={props.onEditBlocks} />
          </div>
        </Section>
      )}
      <Section title="Top-Ups">
        <Fields
          items={[
            ['Bought This Cycle', blocksWord(s.topUpBlocksThisCycle)],
            ['Left This Cycle', blocksWord(s.topUpBlocksLeft)],
            ['Top-Up Block', s.topUpProduct ? `${dataText(s.topUpProduct.dataGB)} for ${priceText(s.topUpProduct.price, s.topUpProduct.currency)}` : 'Not sold on this plan'],
          ]}
        />
        <div className="terminal-actions">
          <ActionButton show={offered.topUp} label={LINE_SETTINGS_TEXTS.topUp} icon="pi pi-plus" onClick={props.onTopUp} />
        </div>
      </Section>
      <Section title="Partial Periods">
        {s.partialPeriods.length === 0 ? (
          <p className="text-muted">None</p>
        ) : (
          <ul className="line-periods" aria-label="Partial periods">
            {s.partialPeriods.map((p) => (
              <li key={`${p.productReferenceId}:${p.periodStart}`}>
                {p.productReferenceId}: {calendarDay(p.periodStart)} to {calendarDay(p.periodEnd)}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Equipment {...props} settings={s} />
      {offered.deactivate && (
        <div className="terminal-actions">
          <ActionButton show label={LINE_SETTINGS_TEXTS.deactivate} icon="pi pi-power-off" severity="danger" onClick={props.onDeactivate} />
        </div>
      )}
      {!anyOffered && <p className="text-muted line-read-only">{LINE_SETTINGS_TEXTS.readOnly}</p>}
    </>
  );
}

const terminalName = (t: { kitSerialNumber: string; nickname: string | null }) => (t.nickname ? `${t.kitSerialNumber} (${t.nickname})` : t.kitSerialNumber);
const routerName = (r: RouterWire) => r.nickname ?? r.routerId;
const configName = (settings: ServiceLineSettingsWire, configId: string | null) =>
  configId === null || configId === '' ? LINE_SETTINGS_TEXTS.defaultConfig : (settings.routerConfigs.find((c) => c.configId === configId)?.nickname ?? configId);

/** The line's terminals, each with Move and Remove, and the routers behind them with Reboot and Config. */
function Equipment(props: SettingsTabProps & { settings: ServiceLineSettingsWire }) {
  const { settings: s, offered } = props;
  return (
    <Section title={LINE_SETTINGS_TEXTS.equipmentTitle}>
      {s.terminals.length === 0 ? (
        <p className="text-muted">{LINE_SETTINGS_TEXTS.noTerminals}</p>
      ) : (
        <ul className="line-equipment" aria-label={LINE_SETTINGS_TEXTS.equipmentTitle}>
          {s.terminals.map((t) => (
            <li key={t.deviceId || t.kitSerialNumber}>
              <div className="line-equipment-row">
                <span className="line-equipment-name">
                  <i className="pi pi-wifi" aria-hidden="true" /> {terminalName(t)}
                </span>
                {offered.terminals && (
                  <span className="terminal-actions">
                    <Button type="button" label={LINE_SETTINGS_TEXTS.move} icon="pi pi-arrow-right-arrow-left" size="small" text aria-label={`Move ${t.kitSerialNumber}`} onClick={() => props.onMove(t.deviceId)} />
                    <Button
                      type="button"
                      label={LINE_SETTINGS_TEXTS.remove}
                      icon="pi pi-minus-circle"
                      size="small"
                      text
                      severity="danger"
                      aria-label={`Remove ${t.kitSerialNumber} from the line`}
                      onClick={() => props.onRemove(t.deviceId)}
                    />
                  </span>
                )}
              </div>
              {t.routers.length > 0 && (
                <ul className="line-routers" aria-label={`Routers of ${t.kitSerialNumber}`}>
                  {t.routers.map((r) => (
                    <li key={r.routerId} className="line-equipment-row">
                      <span className="line-equipment-name">
                        <i className="pi pi-server" aria-hidden="true" /> {routerName(r)} <span className="text-muted">· {configName(s, r.configId)}</span>
                      </span>
                      {(offered.routers || offered.routerConfig) && (
                        <span className="terminal-actions">
                          {offered.routers && (
                            <Button type="button" label={LINE_SETTINGS_TEXTS.rebootRouter} icon="pi pi-refresh" size="small" text aria-label={`Reboot router ${routerName(r)}`} onClick={() => props.onRebootRouter(r.routerId)} />
                          )}
                          {offered.routerConfig && (
                            <Button type="button" label={LINE_SETTINGS_TEXTS.routerConfig} icon="pi pi-sliders-h" size="small" text aria-label={`Configure router ${routerName(r)}`} onClick={() => props.onRouterConfig(r.routerId)} />
                          )}
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** Cancel (or Back) and the step's button, busy while its request runs. */
function Footer(props: { busy: boolean; label: string; busyLabel: string; icon: string; danger?: boolean; form?: string; onAction?(): void; onBack?(): void; onCancel(): void }) {
  return (
    <div className="dialog-footer">
      {props.onBack ? (
        <Button type="button" label={LINE_SETTINGS_TEXTS.back} outlined disabled={props.busy} onClick={props.onBack} />
      ) : (
        <Button type="button" label={LINE_SETTINGS_TEXTS.cancel} outlined disabled={props.busy} onClick={props.onCancel} />
      )}
      <Button
        type={props.form ? 'submit' : 'button'}
        {...(props.form ? { form: props.form } : {})}
        label={props.busy ? props.busyLabel : props.label}
        icon={props.busy ? 'pi pi-spin pi-spinner' : props.icon}
        {...(props.danger ? { severity: 'danger' as const } : {})}
        disabled={props.busy}
        {...(props.onAction ? { onClick: props.onAction } : {})}
      />
    </div>
  );
}

function StepDialog(props: { header: string; busy: boolean; failure: string | null; onClose(): void; footer: ReactNode; children: ReactNode }) {
  return (
    <CustomerDialog header={props.header} busy={props.busy} onClose={props.onClose} footer={props.footer}>
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
      {props.children}
    </CustomerDialog>
  );
}

const submitted = (onSubmit: () => void) => (event: FormEvent<HTMLFormElement>) => {
  event.preventDefault();
  onSubmit();
};

/**
 * A one-step form in a dialog of its own: the form's fields (given the ids' prefix), and the button
 * that submits it, busy while the request runs. Pressing Enter in a field submits as the button does.
 */
function FormStep(props: Pick<SettingsTabProps, 'busy' | 'failure' | 'onClose' | 'onSubmit'> & { header: string; label: string; busyLabel: string; icon: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <StepDialog
      header={props.header}
      busy={props.busy}
      failure={props.failure}
      onClose={props.onClose}
      footer={<Footer busy={props.busy} label={props.label} busyLabel={props.busyLabel} icon={props.icon} form={`${id}-form`} onCancel={props.onClose} />}
    >
      <form id={`${id}-form`} className="dialog-form" onSubmit={submitted(props.onSubmit)} noValidate aria-label={props.header}>
        {props.children(id)}
      </form>
    </StepDialog>
  );
}

function RenameDialog({ step, ...props }: SettingsTabProps & { settings: ServiceLineSettingsWire; step: Extract<LineSettingsStep, { kind: 'rename' }> }) {
  return (
    <FormStep {...props} header={LINE_SETTINGS_TEXTS.renameHeader} label={LINE_SETTINGS_TEXTS.save} busyLabel={LINE_SETTINGS_TEXTS.saving} icon="pi pi-check">
      {(id) => (
        <>
          <p>
            The name the provider shows for <strong>{props.settings.serviceLineNumber}</strong>.
          </p>
          <FormField id={`${id}-nickname`} label="Nickname" error={step.error} hint={`${step.nickname.trim().length} / ${NICKNAME_MAX_LENGTH} characters`}>
            <InputText
              id={`${id}-nickname`}
              name="nickname"
              value={step.nickname}
              disabled={props.busy}
              onChange={(event) => props.onNickname(event.target.value)}
              {...fieldA11y(`${id}-nickname`, step.error)}
            />
          </FormField>
        </>
      )}
    </FormStep>
  );
}

function ToggleDialog(props: SettingsTabProps & { settings: ServiceLineSettingsWire; kind: 'publicIp' | 'priority' }) {
  const s = props.settings;
  const on = props.kind === 'publicIp' ? !s.publicIp : !s.optedIn;
  const label = props.kind === 'publicIp' ? (on ? LINE_SETTINGS_TEXTS.enable : LINE_SETTINGS_TEXTS.disable) : on ? LINE_SETTINGS_TEXTS.turnOn : LINE_SETTINGS_TEXTS.turnOff;
  return (
    <StepDialog
      header={props.kind === 'publicIp' ? LINE_SETTINGS_TEXTS.publicIpHeader : LINE_SETTINGS_TEXTS.priorityHeader}
      busy={props.busy}
      failure={props.failure}
      onClose={props.onClose}
      footer={<Footer busy={props.busy} label={label} busyLabel={LINE_SETTINGS_TEXTS.saving} icon="pi pi-check" onAction={props.onConfirm} onCancel={props.onClose} />}
    >
      <div className="confirm-body">
        <i className="pi pi-question-circle confirm-icon" aria-hidden="true" />
        {props.kind === 'publicIp' ? (
          <p>
            {on ? 'Enable' : 'Disable'} the public IP of <strong>{lineName(s)}</strong>?{' '}
            {on ? 'Its terminals get a public IPv4 address.' : 'Its terminals go back behind the provider’s NAT.'}
          </p>
        ) : (
          <p>
            Turn {on ? 'on' : 'off'} priority data past the limit for <strong>{lineName(s)}</strong>?{' '}
            {on
              ? s.planKind === 'blocks'
                ? 'Past the limit the line buys top-ups automatically.'
                : 'Data past the limit is billed as overage.'
              : 'Past the limit the line slows down instead of costing more.'}
          </p>
        )}
      </div>
    </StepDialog>
  );
}

function BlocksDialog({ step, ...props }: SettingsTabProps & { settings: ServiceLineSettingsWire; step: Extract<LineSettingsStep, { kind: 'blocks' }> }) {
  const id = useId();
  const s = props.settings;
  const product = productOf(s, step.productId);
  const confirming = step.step === 'confirm';
  const countOptions = Array.from({ length: MAX_RECURRING_BLOCKS }, (_, i) => ({ value: i + 1, label: blocksWord(i + 1) }));
  return (
    <StepDialog
      header={LINE_SETTINGS_TEXTS.blocksHeader}
      busy={props.busy}
      failure={props.failure}
      onClose={props.onClose}
      footer={
        confirming ? (
          <Footer busy={props.busy} label={LINE_SETTINGS_TEXTS.updateBlocks} busyLabel={LINE_SETTINGS_TEXTS.updating} icon="pi pi-check" onAction={props.onConfirm} onBack={props.onBack} onCancel={props.onClose} />
        ) : (
          <Footer busy={false} label={LINE_SETTINGS_TEXTS.continue} busyLabel="" icon="pi pi-arrow-right" form={`${id}-form`} onCancel={props.onClose} />
        )
      }
    >
      {confirming ? (
        <p className="dialog-section">
          {lineName(s)} gets {blocksWord(step.count)} of {product ? dataText(product.dataGB) : step.productId} a month
          {product && ` (${dataText(product.dataGB * step.count)}) for ${priceText(topUpPrice(product, step.count), product.currency)} a month`}, from the next
          cycle on{step.applyNow ? ', and the blocks it lacks are added to this cycle now' : ''}.
        </p>
      ) : (
        <form id={`${id}-form`} className="dialog-form" onSubmit={submitted(props.onSubmit)} noValidate aria-label={LINE_SETTINGS_TEXTS.blocksHeader}>
          <fieldset className="dialog-section">
            <legend className="dialog-section-title">Data block</legend>
            <ul className="plan-options">
              {s.blockProducts.map((p: DataProductWire) => (
                <li key={p.productId} className="plan-option">
                  <RadioButton inputId={`${id}-${p.productId}`} name="block" value={p.productId} checked={step.productId === p.productId} onChange={() => props.onBlockProduct(p.productId)} />
                  <label htmlFor={`${id}-${p.productId}`}>
                    {dataText(p.dataGB)} · {priceText(p.price, p.currency)} a block
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <FormField id={`${id}-count`} label="Blocks a month" error={null}>
            <Dropdown inputId={`${id}-count`} value={step.count} options={countOptions} onChange={(event) => props.onBlockCount(Number(event.value))} />
          </FormField>
          <div className="form-field form-check">
            <Checkbox inputId={`${id}-now`} checked={step.applyNow} onChange={(event) => props.onApplyNow(Boolean(event.checked))} />
            <label htmlFor={`${id}-now`}>Also add them to this cycle now</label>
          </div>
        </form>
      )}
    </StepDialog>
  );
}

function TopUpDialog({ step, ...props }: SettingsTabProps & { settings: ServiceLineSettingsWire; step: Extract<LineSettingsStep, { kind: 'topUp' }> }) {
  const id = useId();
  const s = props.settings;
  const product = s.topUpProduct;
  const confirming = step.step === 'confirm';
  const options = Array.from({ length: Math.max(s.topUpBlocksLeft, step.count) }, (_, i) => ({ value: i + 1, label: blocksWord(i + 1) }));
  return (
    <StepDialog
      header={LINE_SETTINGS_TEXTS.topUpHeader}
      busy={props.busy}
      failure={props.failure}
      onClose={props.onClose}
      footer={
        confirming ? (
          <Footer busy={props.busy} label={LINE_SETTINGS_TEXTS.buy} busyLabel={LINE_SETTINGS_TEXTS.buying} icon="pi pi-shopping-cart" onAction={props.onConfirm} onBack={props.onBack} onCancel={props.onClose} />
        ) : (
          <Footer busy={false} label={LINE_SETTINGS_TEXTS.continue} busyLabel="" icon="pi pi-arrow-right" form={`${id}-form`} onCancel={props.onClose} />
        )
      }
    >
      {confirming && product ? (
        <p className="dialog-section">
          Buy {blocksWord(step.count)} of {dataText(product.dataGB)} ({dataText(product.dataGB * step.count)}) for{' '}
          <strong className="top-up-price">{priceText(topUpPrice(product, step.count), product.currency)}</strong> for <strong>{lineName(s)}</strong>? The data is
          for this billing cycle only.
        </p>
      ) : (
        <form id={`${id}-form`} className="dialog-form" onSubmit={submitted(props.onSubmit)} noValidate aria-label={LINE_SETTINGS_TEXTS.topUpHeader}>
          <p>
            One-time data for this billing cycle: {s.topUpBlocksLeft === 1 ? '1 block' : `up to ${s.topUpBlocksLeft} blocks`} left.
          </p>
          <FormField id={`${id}-count`} label="Blocks" error={null}>
            <Dropdown inputId={`${id}-count`} value={step.count} options={options} onChange={(event) => props.onTopUpCount(Number(event.value))} />
          </FormField>
        </form>
      )}
    </StepDialog>
  );
}

const WHEN_LABEL: Record<DeactivationWhen, string> = { now: 'Now', end_of_cycle: 'At the end of the billing cycle' };

function DeactivateDialog({ step, ...props }: SettingsTabProps & { settings: ServiceLineSettingsWire; step: Extract<LineSettingsStep, { kind: 'deactivate' }> }) {
  const id = useId();
  const s = props.settings;
  const confirming = step.step === 'confirm';
  return (
    <StepDialog
      header={LINE_SETTINGS_TEXTS.deactivateHeader}
      busy={props.busy}
      failure={props.failure}
      onClose={props.onClose}
      footer={
        confirming ? (
          <Footer
            busy={props.busy}
            label={LINE_SETTINGS_TEXTS.confirmDeactivate}
            busyLabel={LINE_SETTINGS_TEXTS.deactivating}
            icon="pi pi-power-off"
            danger
            onAction={props.onConfirm}
            onBack={props.onBack}
            onCancel={props.onClose}
          />
        ) : (
          <Footer busy={false} label={LINE_SETTINGS_TEXTS.continue} busyLabel="" icon="pi pi-arrow-right" danger form={`${id}-form`} onCancel={props.onClose} />
        )
      }
    >
      {confirming ? (
        <div className="confirm-body">
          <i className="pi pi-exclamation-triangle confirm-icon" aria-hidden="true" />
          <div>
            <p>
              Deactivate <strong>{lineName(s)}</strong> {step.when === 'now' ? 'now' : 'at the end of its billing cycle'}?{' '}
              {s.customer ? (
                <>
                  <strong>{s.customer.name}</strong> loses service on {s.terminals.length === 1 ? 'this terminal' : 'these terminals'}:
                </>
              ) : (
                <>Its terminals lose service:</>
              )}
            </p>
            {s.terminals.length === 0 ? (
              <p className="text-muted">No terminals are on this line.</p>
            ) : (
              <ul className="line-terminals" aria-label="Terminals losing service">
                {s.terminals.map((t) => (
                  <li key={t.deviceId || t.kitSerialNumber}>
                    {t.kitSerialNumber}
                    {t.nickname ? ` (${t.nickname})` : ''}
                  </li>
                ))}
              </ul>
            )}
            <p className="confirm-reason" aria-label="Reason">
              {step.reason.trim()}
            </p>
          </div>
        </div>
      ) : (
        <form id={`${id}-form`} className="dialog-form" onSubmit={submitted(props.onSubmit)} noValidate aria-label={LINE_SETTINGS_TEXTS.deactivateHeader}>
          <fieldset className="dialog-section" aria-describedby={step.errors.when ? `${id}-when-error` : undefined}>
            <legend className="dialog-section-title">When</legend>
            {(Object.keys(WHEN_LABEL) as DeactivationWhen[]).map((when) => (
              <div key={when} className="plan-option">
                <RadioButton inputId={`${id}-${when}`} name="when" value={when} checked={step.when === when} onChange={() => props.onWhen(when)} />
                <label htmlFor={`${id}-${when}`}>{WHEN_LABEL[when]}</label>
              </div>
            ))}
            {step.errors.when && (
              <small id={`${id}-when-error`} className="field-error" role="alert">
                {step.errors.when}
              </small>
            )}
          </fieldset>
          <FormField
            id={`${id}-reason`}
            label="Reason"
            error={step.errors.reason}
            hint={`${step.reason.trim().length} / ${DEACTIVATION_REASON_MAX_LENGTH} characters`}
          >
            <InputTextarea
              id={`${id}-reason`}
              name="reason"
              rows={3}
              autoResize
              value={step.reason}
              onChange={(event) => props.onReason(event.target.value)}
              {...fieldA11y(`${id}-reason`, step.errors.reason)}
            />
          </FormField>
        </form>
      )}
    </StepDialog>
  );
}

function MoveDialog({ step, ...props }: SettingsTabProps & { settings: ServiceLineSettingsWire; step: Extract<LineSettingsStep, { kind: 'move' }> }) {
  const terminal = props.settings.terminals.find((t) => t.deviceId === step.deviceId);
  return (
    <FormStep {...props} header={LINE_SETTINGS_TEXTS.moveHeader} label={LINE_SETTINGS_TEXTS.moveAction} busyLabel={LINE_SETTINGS_TEXTS.moving} icon="pi pi-arrow-right-arrow-left">
      {(id) => (
        <>
          <p>
            Move <strong>{terminal ? terminalName(terminal) : step.deviceId}</strong> from <strong>{props.settings.serviceLineNumber}</strong> to another active service
            line. It keeps its customer; it takes the plan and address of the line it goes to.
          </p>
          <FormField id={`${id}-target`} label="To Service Line" error={step.error}>
            <InputText
              id={`${id}-target`}
              name="toServiceLineNumber"
              value={step.target}
              disabled={props.busy}
              placeholder="AST-000000-00000-00"
              onChange={(event) => props.onTarget(event.target.value)}
              {...fieldA11y(`${id}-target`, step.error)}
            />
          </FormField>
        </>
      )}
    </FormStep>
  );
}

function ConfirmStep(props: SettingsTabProps & { header: string; label: string; busyLabel: string; icon: string; danger?: boolean; children: ReactNode }) {
  return (
    <StepDialog
      header={props.header}
      busy={props.busy}
      failure={props.failure}
      onClose={props.onClose}
      footer={<Footer busy={props.busy} label={props.label} busyLabel={props.busyLabel} icon={props.icon} {...(props.danger ? { danger: true } : {})} onAction={props.onConfirm} onCancel={props.onClose} />}
    >
      <div className="confirm-body">
        <i className={`pi ${props.danger ? 'pi-exclamation-triangle' : 'pi-question-circle'} confirm-icon`} aria-hidden="true" />
        <p>{props.children}</p>
      </div>
    </StepDialog>
  );
}

/** The account default's value in the configuration Dropdown (not an id the provider gives: ids have no spaces). */
const DEFAULT_CHOICE = ' default';

function RouterConfigDialog({ step, ...props }: SettingsTabProps & { settings: ServiceLineSettingsWire; step: Extract<LineSettingsStep, { kind: 'routerConfig' }> }) {
  const s = props.settings;
  const router = s.terminals.flatMap((t) => t.routers).find((r) => r.routerId === step.routerId);
  // The Dropdown takes '' for "nothing chosen", so the account default has a value of its own here.
  const options = [{ label: LINE_SETTINGS_TEXTS.defaultConfig, value: DEFAULT_CHOICE }, ...s.routerConfigs.map((c) => ({ label: c.nickname ?? c.configId, value: c.configId }))];
  return (
    <FormStep {...props} header={LINE_SETTINGS_TEXTS.routerConfigHeader} label={LINE_SETTINGS_TEXTS.assign} busyLabel={LINE_SETTINGS_TEXTS.saving} icon="pi pi-check">
      {(id) => (
        <>
          <p>
            The configuration of router <strong>{router ? routerName(router) : step.routerId}</strong> (now: {configName(s, router?.configId ?? null)}).
          </p>
          <FormField id={`${id}-config`} label="Configuration" error={null}>
            <Dropdown
              inputId={`${id}-config`}
              value={step.configId === '' ? DEFAULT_CHOICE : step.configId}
              options={options}
              disabled={props.busy}
              onChange={(event) => props.onConfigId(event.value === DEFAULT_CHOICE ? '' : String(event.value))}
            />
          </FormField>
        </>
      )}
    </FormStep>
  );
}

function StepDialogs(props: SettingsTabProps & { settings: ServiceLineSettingsWire }) {
  const { step } = props;
  switch (step.kind) {
    case 'none':
      return null;
    case 'rename':
      return <RenameDialog {...props} step={step} />;
    case 'publicIp':
    case 'priority':
      return <ToggleDialog {...props} kind={step.kind} />;
    case 'blocks':
      return <BlocksDialog {...props} step={step} />;
    case 'topUp':
      return <TopUpDialog {...props} step={step} />;
    case 'deactivate':
      return <DeactivateDialog {...props} step={step} />;
    case 'move':
      return <MoveDialog {...props} step={step} />;
    case 'remove': {
      const terminal = props.settings.terminals.find((t) => t.deviceId === step.deviceId);
      return (
        <ConfirmStep {...props} header={LINE_SETTINGS_TEXTS.removeHeader} label={LINE_SETTINGS_TEXTS.removeAction} busyLabel={LINE_SETTINGS_TEXTS.removing} icon="pi pi-minus-circle" danger>
          Take <strong>{terminal ? terminalName(terminal) : step.deviceId}</strong> off <strong>{lineName(props.settings)}</strong>? It loses service and stays on the account
          on no line, ready to be put on another.
        </ConfirmStep>
      );
    }
    case 'routerReboot': {
      const router = props.settings.terminals.flatMap((t) => t.routers).find((r) => r.routerId === step.routerId);
      return (
        <ConfirmStep {...props} header={LINE_SETTINGS_TEXTS.rebootRouterHeader} label={LINE_SETTINGS_TEXTS.reboot} busyLabel={LINE_SETTINGS_TEXTS.rebooting} icon="pi pi-refresh">
          Reboot router <strong>{router ? routerName(router) : step.routerId}</strong>? Its Wi-Fi drops for a few minutes.
        </ConfirmStep>
      );
    }
    case 'routerConfig':
      return <RouterConfigDialog {...props} step={step} />;
  }
}

export function SettingsTab(props: SettingsTabProps) {
  const { settings } = props;
  return (
    <div className="terminal-tab line-settings">
      {props.loading && (
        <p className="terminal-detail-loading" role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {LINE_SETTINGS_TEXTS.loading}
        </p>
      )}
      {props.loadError !== null && (
        <ErrorCard title={LINE_SETTINGS_TEXTS.loadFailedTitle} message={props.loadError} onRetry={props.onRetry} headingLevel={3} />
      )}
      {settings && !props.loading && (
        <>
          <Overview {...props} settings={settings} />
          <StepDialogs {...props} settings={settings} />
        </>
      )}
    </div>
  );
}
