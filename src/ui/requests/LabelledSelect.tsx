// A labelled PrimeReact Dropdown found by role, as MonthSelect does it: PrimeReact 10.9 gives no
// element the combobox role, so the visible box takes it with the label.
import { useId } from 'react';
import { Dropdown } from 'primereact/dropdown';

export interface LabelledSelectProps<T extends string | number> {
  label: string;
  value: T | null;
  options: readonly { label: string; value: T }[];
  placeholder?: string;
  disabled?: boolean;
  onChange(value: T): void;
}

export function LabelledSelect<T extends string | number>({ label, value, options, placeholder, disabled = false, onChange }: LabelledSelectProps<T>) {
  const id = useId();
  const labelId = `${id}-label`;
  return (
    <div className="labelled-select">
      <label id={labelId} htmlFor={id}>
        {label}
      </label>
      <Dropdown
        role="combobox"
        pt={{ root: ({ state }: { state: { overlayVisible: boolean } }) => ({ 'aria-labelledby': labelId, 'aria-expanded': state.overlayVisible }) }}
        inputId={id}
        value={value}
        options={[...options]}
        optionLabel="label"
        optionValue="value"
        placeholder={placeholder}
        disabled={disabled}
        onChange={(event) => onChange(event.value as T)}
      />
    </div>
  );
}
