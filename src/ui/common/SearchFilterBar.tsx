// The search box and status filter above a list (customers, terminals): labelled for screen
// readers, a search landmark, the typed text and the chosen status handed back as they change.
// A list with more filters (the audit log) passes them as children, inside the same landmark.
import { useId, type ReactNode } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';

export interface SearchFilterBarProps<TStatus extends string> {
  /** What is searched, for the hidden label: "Search customers". */
  searchLabel: string;
  placeholder: string;
  maxLength: number;
  search: string;
  onSearch(text: string): void;
  status: TStatus;
  options: readonly { value: TStatus; label: string }[];
  onStatus(value: TStatus): void;
  /** The status filter's hidden label; "Status filter" unless the list filters something else. */
  statusLabel?: string;
  /** Further filters, after the status. */
  children?: ReactNode;
}

/** A list's search box with its hidden label: one look and one behaviour on every list. */
export function SearchField(props: { label: string; placeholder: string; maxLength: number; value: string; onChange(text: string): void }) {
  const searchId = `${useId()}-search`;
  return (
    <>
      <label htmlFor={searchId} className="sr-only">
        {props.label}
      </label>
      <IconField iconPosition="left" className="list-search">
        <InputIcon className="pi pi-search" />
        <InputText
          id={searchId}
          type="search"
          autoComplete="off"
          maxLength={props.maxLength}
          placeholder={props.placeholder}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      </IconField>
    </>
  );
}

export function SearchFilterBar<TStatus extends string>(props: SearchFilterBarProps<TStatus>) {
  const statusId = `${useId()}-status`;
  return (
    <div className="list-toolbar" role="search">
      <SearchField label={props.searchLabel} placeholder={props.placeholder} maxLength={props.maxLength} value={props.search} onChange={props.onSearch} />
      <label htmlFor={statusId} className="sr-only">
        {props.statusLabel ?? 'Status filter'}
      </label>
      <Dropdown
        inputId={statusId}
        className="list-status"
        value={props.status}
        options={[...props.options]}
        optionLabel="label"
        optionValue="value"
        onChange={(event) => props.onStatus(event.value as TStatus)}
      />
      {props.children}
    </div>
  );
}
