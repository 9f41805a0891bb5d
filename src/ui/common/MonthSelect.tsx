// The month selector of the usage views (spec 9: the last twelve months, newest first, placeholder
// "Select month"): the customer usage page and the Terminal Details dialog's Usage tab.
import { useId } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { CUSTOMER_USAGE_MESSAGES } from '../../domain/customer-terminals';

export interface MonthSelectProps {
  months: readonly { value: string; label: string }[];
  /** The selected month's value, e.g. `2025-3`. */
  month: string;
  onMonth(value: string): void;
  /** The label is always there for assistive technology; shown only when asked. */
  showLabel?: boolean;
}

export function MonthSelect({ months, month, onMonth, showLabel = false }: MonthSelectProps) {
  const id = useId();
  const labelId = `${id}-label`;
  return (
    <>
      <label id={labelId} htmlFor={id} className={showLabel ? undefined : 'sr-only'}>
        Month
      </label>
      {/* PrimeReact 10.9's Dropdown gives no element the combobox role (its focusable input is a
          clipped textbox); the visible box takes it with the label, so it is announced and found
          by role. The hidden input keeps the keyboard focus. */}
      <Dropdown
        role="combobox"
        pt={{ root: ({ state }: { state: { overlayVisible: boolean } }) => ({ 'aria-labelledby': labelId, 'aria-expanded': state.overlayVisible }) }}
        inputId={id}
        value={month}
        options={[...months]}
        optionLabel="label"
        optionValue="value"
        placeholder={CUSTOMER_USAGE_MESSAGES.monthPlaceholder}
        onChange={(event) => onMonth(event.value as string)}
      />
    </>
  );
}
