import { useId } from 'react';
import { Dropdown } from 'primereact/dropdown';
import type { ProviderAccountRef } from '../../domain/provider-accounts';

/** The "all accounts" choice (PrimeReact's Dropdown reads a null value as none chosen). */
const ALL_ACCOUNTS = 'all';

export interface AccountPickerProps {
  accounts: readonly ProviderAccountRef[];
  /** The chosen account; null is "all accounts" when `allLabel` offers it. */
  value: number | null;
  onChange(id: number | null): void;
  label?: string;
  /** Offers every account at once under this name (a list filter). */
  allLabel?: string;
  /** The label is read out but not shown (a filter bar names its fields by their values). */
  hideLabel?: boolean;
  className?: string;
}

/** Which provider account a page works on, as a labelled Dropdown. */
export function AccountPicker({ accounts, value, onChange, label = 'Account', allLabel, hideLabel = false, className }: AccountPickerProps) {
  const id = useId();
  const options = [
    ...(allLabel ? [{ value: ALL_ACCOUNTS, label: allLabel }] : []),
    ...accounts.map((a) => ({ value: String(a.id), label: a.name })),
  ];
  return (
    <>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'account-picker-label'}>
        {label}
      </label>
      <Dropdown
        inputId={id}
        {...(className ? { className } : {})}
        value={value === null ? ALL_ACCOUNTS : String(value)}
        options={options}
        optionLabel="label"
        optionValue="value"
        onChange={(event) => onChange(event.value === ALL_ACCOUNTS ? null : Number(event.value))}
      />
    </>
  );
}
