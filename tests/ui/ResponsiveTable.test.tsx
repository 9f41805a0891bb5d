import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { DataTable } from 'primereact/datatable';
import { useColumnFolding, type ExtraExpansion } from '../../src/ui/common/useColumnFolding';
import { renderStrict } from './render';

interface Line {
  id: string;
  name: string;
  status: string;
  created: string;
  serial: string;
}

const LINES: Line[] = [
  { id: 'a', name: 'Ship Alpha', status: 'Active', created: '2026-01-02', serial: 'KIT-0001' },
  { id: 'b', name: 'Ship Bravo', status: 'Blocked', created: '2026-03-04', serial: 'KIT-0002' },
];

/** A controllable matchMedia: `narrow` answers the phone query, `change()` tells the listeners. */
function stubViewport(narrow: boolean) {
  const listeners = new Set<() => void>();
  const state = { narrow };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return state.narrow && query.includes('max-width: 767px');
    },
    media: query,
    onchange: null,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
  return {
    resize(next: boolean) {
      state.narrow = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

function LinesTable({ onOpen = () => {}, extra }: { onOpen?: (line: Line) => void; extra?: ExtraExpansion<Line> }) {
  const folding = useColumnFolding<Line>({ rowKey: (l) => l.id, rowName: (l) => l.name, ...(extra ? { extraExpansion: extra } : {}) });
  return (
    <DataTable
      value={LINES}
      dataKey="id"
      onRowClick={(event) => onOpen(event.data as Line)}
      pt={{ table: { 'aria-label': 'Lines' } }}
      {...folding.table([
        { priority: 'always', header: 'Name', body: (l) => l.name },
        { priority: 'fold', header: 'Serial', body: (l) => <span className="cell-mono">{l.serial}</span> },
        { priority: 'always', header: 'Status', body: (l) => l.status },
        { priority: 'fold', header: 'Created', body: (l) => l.created },
        false,
        { priority: 'always', header: 'Actions', body: (l) => <button type="button">Edit {l.name}</button> },
      ])}
    />
  );
}

const headers = () => screen.getAllByRole('columnheader').map((th) => th.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useColumnFolding (responsive list tables)', () => {
  it('shows every column and no toggle at desktop widths', () => {
    stubViewport(false);
    renderStrict(<LinesTable />);
    expect(headers()).toEqual(['Name', 'Serial', 'Status', 'Created', 'Actions']);
    expect(screen.getByText('KIT-0001')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^More about/ })).toBeNull();
  });

  it('shows every column when the browser has no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    renderStrict(<LinesTable />);
    expect(headers()).toEqual(['Name', 'Serial', 'Status', 'Created', 'Actions']);
  });

  it('on a phone, moves the fold columns out of the table and keeps identity, status and actions', () => {
    stubViewport(true);
    renderStrict(<LinesTable />);
    expect(headers()).toEqual(['More', 'Name', 'Status', 'Actions']);
    expect(screen.queryByText('KIT-0001')).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit Ship Alpha' })).toBeTruthy();
  });

  it('opens a row’s folded fields as a definition list from its toggle, and closes them again', async () => {
    stubViewport(true);
    const onOpen = vi.fn();
    const { user } = renderStrict(<LinesTable onOpen={onOpen} />);
    const toggle = screen.getByRole('button', { name: 'More about Ship Bravo' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.hasAttribute('aria-controls')).toBe(false);

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const fields = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(fields.tagName).toBe('DL');
    expect([...fields.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Serial', 'Created']);
    expect([...fields.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual(['KIT-0002', '2026-03-04']);
    // The same cell renderer as the column's.
    expect(within(fields).getByText('KIT-0002').className).toBe('cell-mono');
    // The other row stays closed, and the toggle does not act as a click on its row.
    expect(screen.getByRole('button', { name: 'More about Ship Alpha' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('KIT-0001')).toBeNull();
    expect(onOpen).not.toHaveBeenCalled();

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('KIT-0002')).toBeNull();
  });

  it('works from the keyboard: Enter on the focused toggle opens the fields', async () => {
    stubViewport(true);
    const { user } = renderStrict(<LinesTable />);
    const toggle = screen.getByRole('button', { name: 'More about Ship Alpha' });
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('KIT-0001')).toBeTruthy();
    expect(document.activeElement).toBe(toggle);
  });

  it('follows the viewport: widening puts the columns back and drops the expansion', async () => {
    const viewport = stubViewport(true);
    const { user } = renderStrict(<LinesTable />);
    await user.click(screen.getByRole('button', { name: 'More about Ship Alpha' }));
    expect(document.querySelector('dl.folded-fields')).not.toBeNull();

    viewport.resize(false);
    expect(headers()).toEqual(['Name', 'Serial', 'Status', 'Created', 'Actions']);
    expect(document.querySelector('dl.folded-fields')).toBeNull();
    expect(screen.getAllByText('KIT-0001')).toHaveLength(1);

    viewport.resize(true);
    expect(headers()).toEqual(['More', 'Name', 'Status', 'Actions']);
  });

  it('keeps a table’s own row expansion beside the folded fields', async () => {
    stubViewport(true);
    const extra: ExtraExpansion<Line> = { rows: [LINES[0]!], render: (l) => <p>Attempts of {l.name}</p> };
    const { user } = renderStrict(<LinesTable extra={extra} />);
    expect(screen.getByText('Attempts of Ship Alpha')).toBeTruthy();
    expect(document.querySelector('dl.folded-fields')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'More about Ship Alpha' }));
    expect(screen.getByText('Attempts of Ship Alpha')).toBeTruthy();
    expect(screen.getByText('KIT-0001')).toBeTruthy();
  });
});
