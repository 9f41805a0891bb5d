import { describe, expect, it } from 'vitest';
import { SIDEBAR_MENU } from '../../src/domain/navigation';
import {
  bestMatchRank,
  matchPages,
  matchRank,
  menuPages,
  openableResults,
  optionKey,
  optionUrl,
  PAGE_MATCHES_MAX,
  PALETTE_PAGES,
  paletteOptions,
  searchKindsFor,
  searchQuery,
  searchResultUrl,
  SEARCH_QUERY_MAX_LENGTH,
  type SearchResultWire,
} from '../../src/domain/search';
import { validateTerminalsSearch, validateUsersSearch } from '../../src/routes/search-params';
import { builtInRole } from '../../src/domain/permissions';

const kit: SearchResultWire = { kind: 'kit', id: 'UT10000001', label: 'KIT4A1B2C01', detail: 'Terminal UT10000001' };

describe('matchRank', () => {
  it.each([
    ['polaris', 'polaris', 0],
    ['Polaris', 'POLARIS', 0],
    ['Polaris Shipping', 'polaris', 1],
    ['North Polaris', 'polaris', 2],
    ['ana.lima@andes.example', 'lima', 2],
    ['AST-100001-00001-01', '00001', 2],
    ['Apolaris', 'polaris', 3],
    ['KQX7W3E9R2T5', 'w3e9r2', 3],
    ['Polaris', 'vega', null],
  ] as const)('%s holding %s ranks %s', (text, term, rank) => {
    expect(matchRank(text, term)).toBe(rank);
  });

  it('prefers a word start that comes after a match inside a word', () => {
    expect(matchRank('apolaris polaris', 'polaris')).toBe(2);
  });

  it('matches nothing for a blank term, and trims the term', () => {
    expect(matchRank('anything', '   ')).toBeNull();
    expect(matchRank('Polaris', '  polaris ')).toBe(0);
  });

  it('takes the best of several fields, skipping missing ones', () => {
    expect(bestMatchRank(['Apolaris', null, 'Polaris Group'], 'polaris')).toBe(1);
    expect(bestMatchRank([null, undefined], 'polaris')).toBeNull();
  });
});

describe('where an answer opens', () => {
  it('opens a customer on its page, a serial or line in its terminal, a user in the users list', () => {
    expect(searchResultUrl({ kind: 'customer', id: '6c1f2a8e-1111-4222-8333-944445555666' })).toBe('/customer/terminals/6c1f2a8e-1111-4222-8333-944445555666');
    for (const kind of ['kit', 'dish', 'serviceLine'] as const) expect(searchResultUrl({ kind, id: 'UT10000001' })).toBe('/terminals?terminal=UT10000001');
    expect(searchResultUrl({ kind: 'user', id: 'ana+ops@example.com' })).toBe('/users?search=ana%2Bops%40example.com');
  });

  it('gives an address the pages read back as the same terminal and the same email', () => {
    const read = (url: string) => Object.fromEntries([...new URLSearchParams(url.split('?')[1]).entries()].map(([k, v]) => [k, (() => { try { return JSON.parse(v) as unknown; } catch { return v; } })()]));
    // A terminal id of digits would read back as a number if it were not quoted.
    expect(validateTerminalsSearch(read(searchResultUrl({ kind: 'kit', id: '0123456789' }))).terminal).toBe('0123456789');
    expect(validateTerminalsSearch(read(searchResultUrl({ kind: 'kit', id: 'UT10000001' }))).terminal).toBe('UT10000001');
    // The Account filter rides along with an opened terminal as the account's id.
    expect(validateTerminalsSearch(read('/terminals?account=2&terminal=UT10000001'))).toMatchObject({ account: 2, terminal: 'UT10000001' });
    expect(validateTerminalsSearch(read('/terminals?account=0')).account).toBeUndefined();
    expect(validateUsersSearch(read(searchResultUrl({ kind: 'user', id: 'ana@example.com' }))).search).toBe('ana@example.com');
  });
});

describe('pages', () => {
  it('lists every address of the sidebar once, children under their group', () => {
    const pages = menuPages(SIDEBAR_MENU);
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
    expect(pages).toContainEqual({ title: 'Home', url: '/home', section: null });
    expect(pages).toContainEqual({ title: 'Alert rules', url: '/alerts/rules', section: 'Alerts' });
    // A group is reached through its children, not listed as a page of its own.
    expect(pages.filter((p) => p.url === '/customers')).toEqual([{ title: 'Customer Management', url: '/customers', section: 'Customers' }]);
  });

  it('matches pages by title or group, best first, at most a handful', () => {
    expect(matchPages('rules').map((p) => p.url)).toEqual(['/alerts/rules']);
    expect(matchPages('alerts').map((p) => p.url)).toEqual(['/alerts', '/alerts/rules', '/alerts/webhooks']);
    expect(matchPages('e').length).toBeLessThanOrEqual(PAGE_MATCHES_MAX);
    expect(matchPages('KQX7W3')).toEqual([]);
  });

  it('lists every page when nothing is typed', () => {
    expect(matchPages('  ')).toEqual(PALETTE_PAGES);
  });
});

describe('the palette list', () => {
  it('lists the matching pages, then the answers, each with its address and a unique key', () => {
    const options = paletteOptions('kit4a', [kit, { ...kit, kind: 'dish', label: 'DSH1' }]);
    expect(options.map(optionUrl)).toEqual(['/terminals?terminal=UT10000001', '/terminals?terminal=UT10000001']);
    expect(new Set(options.map(optionKey)).size).toBe(2);
    const withPage = paletteOptions('terminals', [kit]);
    expect(withPage[0]).toEqual({ type: 'page', page: { title: 'Terminals', url: '/terminals', section: null } });
    expect(optionUrl(withPage.at(-1)!)).toBe('/terminals?terminal=UT10000001');
  });

  it('asks the server the trimmed text, never a blank one or more than the limit', () => {
    expect(searchQuery('  kit ')).toBe('kit');
    expect(searchQuery('   ')).toBeNull();
    expect(searchQuery('x'.repeat(SEARCH_QUERY_MAX_LENGTH + 5))).toHaveLength(SEARCH_QUERY_MAX_LENGTH);
  });
});

describe('the answers a user may open', () => {
  const answers: SearchResultWire[] = [
    { kind: 'customer', id: 'c-1', label: 'Acme', detail: '' },
    { kind: 'kit', id: 't-1', label: 'KIT1', detail: '' },
    { kind: 'user', id: 'ana@example.com', label: 'Ana', detail: '' },
  ];

  it('keeps each answer whose page the permissions read, and drops the rest', () => {
    expect(openableResults(answers, builtInRole('owner').permissions)).toEqual(answers);
    expect(openableResults(answers, builtInRole('billing').permissions).map((r) => r.kind)).toEqual(['customer', 'kit']);
    expect(openableResults(answers, builtInRole('user_management').permissions).map((r) => r.kind)).toEqual(['user']);
    expect(searchKindsFor(['terminals:manage'])).toEqual(['serviceLine', 'kit', 'dish']);
  });
});
