import { useId } from 'react';
import { InputText } from 'primereact/inputtext';
import { TERMINAL_MESSAGES, type ServiceLineUsageWire, type TerminalDetail } from '../../../domain/terminals';
import { calendarDay } from '../format';
import { EmptyNotice, Fields, Section, type Basics } from './parts';

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="form-field terminal-readonly">
      <label htmlFor={id}>{label}</label>
      <InputText id={id} value={value} readOnly />
    </div>
  );
}

export function InformationTab({ basics, detail, usage }: { basics: Basics; detail: TerminalDetail | null; usage: ServiceLineUsageWire | null }) {
  const owner = basics.owner;
  const facts: [string, string][] = [];
  const add = (label: string, value: string | null | undefined) => {
    if (value != null && value.trim() !== '') facts.push([label, value]);
  };
  add('Nickname', detail?.nickname);
  add('Plan', detail?.plan ?? usage?.plan);
  add('Terminal Type', detail?.terminalType ?? usage?.terminalType);
  add('Model', detail?.model);
  add('Location', detail?.address?.formattedAddress ?? detail?.location ?? usage?.location);
  add('Region', detail?.address?.region ?? detail?.region);
  // The provider's account number; the overview's "Account" is the portal's name for the account.
  add('Account Number', detail?.accountNumber);
  if (detail?.serviceLine?.startDate) add('Service Start', calendarDay(detail.serviceLine.startDate));

  return (
    <div className="terminal-tab">
      <Section title="Owner">
        {owner ? (
          <div className="terminal-owner">
            <ReadOnlyField label="Customer Name" value={owner.name} />
            <ReadOnlyField label="Company" value={owner.company || 'N/A'} />
            <ReadOnlyField label="Customer UUID" value={owner.uuid} />
          </div>
        ) : (
          <EmptyNotice icon="pi pi-user-minus" title={TERMINAL_MESSAGES.noOwnerTitle}>
            {TERMINAL_MESSAGES.noOwnerText}
          </EmptyNotice>
        )}
      </Section>
      {facts.length > 0 && (
        <Section title="Terminal">
          <Fields items={facts} />
        </Section>
      )}
    </div>
  );
}
