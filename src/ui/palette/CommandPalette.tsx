// The command palette's dialog: a combobox over a listbox. Focus stays in the
// text box; the active option is announced through aria-activedescendant, so arrows move through
// the list while typing goes on. The dialog traps focus and gives it back where it was on close
// (PrimeReact's Dialog). Renders props and calls callbacks: the command palette machine decides.
import { useRef, type KeyboardEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { optionKey, SEARCH_KIND_LABELS, SEARCH_QUERY_MAX_LENGTH, type PaletteOption, type SearchKind } from '../../domain/search';
import './palette.css';

export const PALETTE_TITLE = 'Go to';
export const PALETTE_INPUT_LABEL = 'Search customers, service lines, serials, users and pages';
export const PALETTE_LIST_LABEL = 'Matches';
export const PALETTE_BUTTON_LABEL = 'Search (Ctrl+K)';
export const PALETTE_MESSAGES = {
  searching: 'Searching…',
  empty: (input: string) => `No matches for “${input.trim()}”`,
  count: (n: number) => (n === 1 ? '1 match' : `${n} matches`),
  retry: 'Try again',
  hint: '↑ ↓ to move, Enter to open, Esc to close',
} as const;

export type PaletteStatus = 'idle' | 'busy' | 'results' | 'empty' | 'failed';

export interface CommandPaletteProps {
  visible: boolean;
  input: string;
  options: readonly PaletteOption[];
  activeIndex: number;
  status: PaletteStatus;
  error: string | null;
  onType(value: string): void;
  onMove(to: 'next' | 'previous' | 'first' | 'last'): void;
  onPoint(index: number): void;
  onChoose(): void;
  onRetry(): void;
  onClose(): void;
}

const KIND_ICONS: Readonly<Record<SearchKind | 'page', string>> = {
  customer: 'pi pi-briefcase',
  serviceLine: 'pi pi-sitemap',
  kit: 'pi pi-wifi',
  dish: 'pi pi-circle',
  user: 'pi pi-user',
  page: 'pi pi-file',
};

const LIST_ID = 'command-palette-list';
const optionId = (index: number) => `command-palette-option-${index}`;

function optionParts(option: PaletteOption): { kind: SearchKind | 'page'; label: string; detail: string } {
  if (option.type === 'page') return { kind: 'page', label: option.page.title, detail: option.page.section ? `${option.page.section} · ${option.page.url}` : option.page.url };
  return { kind: option.result.kind, label: option.result.label, detail: option.result.detail };
}

/** The button in the top bar that opens the palette. */
export function CommandPaletteButton({ onOpen }: { onOpen(): void }) {
  return (
    <Button type="button" icon="pi pi-search" text rounded severity="secondary" className="command-palette-button" aria-label={PALETTE_BUTTON_LABEL} title={PALETTE_BUTTON_LABEL} aria-haspopup="dialog" onClick={onOpen} />
  );
}

export function CommandPalette(props: CommandPaletteProps) {
  const { visible, input, options, activeIndex, status, error } = props;
  const inputRef = useRef<HTMLInputElement>(null);
  const active = options[activeIndex] ? optionId(activeIndex) : undefined;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, 'next' | 'previous' | 'first' | 'last'> = { ArrowDown: 'next', ArrowUp: 'previous', PageDown: 'last', PageUp: 'first' };
    const to = moves[event.key];
    if (to) {
      event.preventDefault();
      props.onMove(to);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      props.onChoose();
    }
  };

  const announcement =
    status === 'busy' ? PALETTE_MESSAGES.searching : status === 'empty' ? PALETTE_MESSAGES.empty(input) : status === 'failed' ? (error ?? '') : status === 'results' ? PALETTE_MESSAGES.count(options.length) : '';

  return (
    <Dialog
      header={PALETTE_TITLE}
      visible={visible}
      onHide={props.onClose}
      onShow={() => inputRef.current?.focus()}
      className="command-palette"
      position="top"
      draggable={false}
      resizable={false}
      dismissableMask
      blockScroll
      ariaCloseIconLabel="Close search"
    >
      <input
        ref={inputRef}
        className="command-palette-input p-inputtext p-component"
        type="text"
        role="combobox"
        aria-label={PALETTE_INPUT_LABEL}
        aria-expanded={options.length > 0}
        aria-controls={options.length > 0 ? LIST_ID : undefined}
        aria-autocomplete="list"
        aria-activedescendant={active}
        autoComplete="off"
        spellCheck={false}
        maxLength={SEARCH_QUERY_MAX_LENGTH}
        placeholder="Customer, kit or dish serial, service line, user or page"
        value={input}
        onChange={(event) => props.onType(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p className="command-palette-status" role="status">
        {announcement}
      </p>
      {status === 'failed' ? (
        <Button type="button" label={PALETTE_MESSAGES.retry} size="small" outlined onClick={props.onRetry} />
      ) : null}
      {options.length > 0 ? (
        <ul id={LIST_ID} role="listbox" aria-label={PALETTE_LIST_LABEL} className="command-palette-list">
          {options.map((option, index) => {
            const { kind, label, detail } = optionParts(option);
            const selected = index === activeIndex;
            return (
              <li
                key={optionKey(option)}
                id={optionId(index)}
                role="option"
                aria-selected={selected}
                className={selected ? 'command-palette-option is-active' : 'command-palette-option'}
                // The text box keeps the focus (and with it the keyboard) when an option is clicked.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => props.onPoint(index)}
                onClick={() => {
                  props.onPoint(index);
                  props.onChoose();
                }}
              >
                <i className={KIND_ICONS[kind]} aria-hidden="true" />
                <span className="command-palette-text">
                  <span className="command-palette-label">{label}</span>
                  <span className="command-palette-detail">{detail}</span>
                </span>
                <span className="command-palette-kind">{SEARCH_KIND_LABELS[kind]}</span>
              </li>
            );
          })}
        </ul>
      ) : null}
      <p className="command-palette-hint" aria-hidden="true">
        {PALETTE_MESSAGES.hint}
      </p>
    </Dialog>
  );
}
