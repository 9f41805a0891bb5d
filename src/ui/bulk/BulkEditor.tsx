// The editor of a new bulk action: the action, its columns with a sample, the CSV box and Upload
// CSV (read as text into the box), the file's problem as it is typed, and Preview.
import { useId, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { BULK_COLUMNS, BULK_KIND_LABELS, BULK_KINDS, type BulkKind } from '../../domain/bulk';
import { BULK_TEXTS as T, bulkSample } from './parts';

const KIND_OPTIONS = BULK_KINDS.map((value) => ({ value, label: BULK_KIND_LABELS[value] }));

export interface BulkEditorProps {
  kind: BulkKind;
  csv: string;
  fileName: string | null;
  /** Why the CSV cannot be read, shown under the box. */
  problem: string | null;
  /** The editor takes changes (false while previewing or after a failed preview). */
  editable: boolean;
  canPreview: boolean;
  previewing: boolean;
  onKind(kind: BulkKind): void;
  onCsv(text: string): void;
  onFile(file: { name: string; text: string }): void;
  onPreview(): void;
}

export function BulkEditor(props: BulkEditorProps) {
  const id = useId();
  const describedBy = [`${id}-columns`, props.problem ? `${id}-problem` : null].filter(Boolean).join(' ');
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const text = await file.text();
    props.onFile({ name: file.name, text });
    // The same file chosen again (after an edit) is read again.
    input.value = '';
  };
  return (
    <section className="bulk-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.editorTitle}</h2>
      <div className="bulk-field">
        <label htmlFor={`${id}-kind`} id={`${id}-kind-label`}>
          {T.actionLabel}
        </label>
        <Dropdown
          inputId={`${id}-kind`}
          ariaLabelledBy={`${id}-kind-label`}
          value={props.kind}
          options={KIND_OPTIONS}
          optionLabel="label"
          optionValue="value"
          disabled={!props.editable}
          onChange={(event) => props.onKind(event.value as BulkKind)}
          className="bulk-kind"
        />
      </div>
      <div className="bulk-hint" id={`${id}-columns`}>
        <h3>{T.columnsTitle}</h3>
        <ul>
          {BULK_COLUMNS[props.kind].map((column) => (
            <li key={column.field}>
              <code>{column.header}</code> {column.hint}
              {!column.required && ` (${T.optional})`}
            </li>
          ))}
        </ul>
        <p>{T.headerNote}</p>
      </div>
      <figure className="bulk-sample">
        <figcaption>{T.sampleTitle}</figcaption>
        <pre>{bulkSample(props.kind)}</pre>
      </figure>
      <div className="bulk-field">
        <label htmlFor={`${id}-csv`}>{T.csvLabel}</label>
        <InputTextarea
          id={`${id}-csv`}
          value={props.csv}
          rows={8}
          spellCheck={false}
          placeholder={T.csvPlaceholder}
          disabled={!props.editable}
          aria-invalid={props.problem !== null}
          aria-describedby={describedBy}
          className="bulk-csv"
          onChange={(event) => props.onCsv(event.target.value)}
        />
        {props.problem && (
          <small id={`${id}-problem`} className="p-error bulk-problem">
            {props.problem}
          </small>
        )}
      </div>
      <div className="bulk-row">
        <span className="bulk-upload">
          <label htmlFor={`${id}-file`}>{T.uploadLabel}</label>
          <input id={`${id}-file`} type="file" accept=".csv,text/csv" disabled={!props.editable} onChange={(event) => void readFile(event)} />
        </span>
        {props.fileName && <span className="bulk-file-name">{T.readFrom(props.fileName)}</span>}
        <Button
          type="button"
          label={props.previewing ? T.previewing : T.preview}
          icon={props.previewing ? 'pi pi-spin pi-spinner' : 'pi pi-eye'}
          disabled={!props.canPreview}
          onClick={props.onPreview}
        />
      </div>
    </section>
  );
}
