// Several simulated provider accounts: SIM_ACCOUNTS and what each account gets from it, prices
// and invoices in an account's own currency, sites pinned to an account's country, and ids that
// never repeat from one account to another.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import {
  createFleet,
  PLANS,
  simulatedAccountsFromEnv,
  simulatorOptionsFromEnv,
  startSimulator,
  type Fleet,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../server/simulator/index';
import { thrownMessage } from './helpers';
import { simulatorToken } from './simulator-token';

const NOW = new Date('2026-03-18T10:30:00.000Z');
const now = () => NOW;
const round2 = (n: number) => Math.round(n * 100) / 100;

describe('simulatedAccountsFromEnv', () => {
  it('makes the US account of today and a Brazilian one when SIM_ACCOUNTS is unset', () => {
    expect(simulatedAccountsFromEnv({})).toEqual([
      { slug: 'us', name: 'Demo US', options: { currency: 'USD' } },
      { slug: 'br', name: 'Demo Brasil', options: { seed: 'starlink-demo-br', terminals: 52, currency: 'BRL', country: 'BR' } },
    ]);
  });

  it('gives the first account every SIM_* setting and the others the same but their seed, size, currency and credentials', () => {
    const env = {
      SIM_SEED: 'acme',
      SIM_TERMINALS: '90',
      SIM_CLIENT_ID: 'acme-client',
      SIM_CLIENT_SECRET: 'acme-secret',
      SIM_LATENCY_MS: '25',
      SIM_RATE_LIMIT: '250',
      SIM_CONTROLS: 'on',
    };
    const [us, br, ...rest] = simulatedAccountsFromEnv(env);
    expect(rest).toEqual([]);
    expect(us).toEqual({ slug: 'us', name: 'Demo US', options: { ...simulatorOptionsFromEnv(env), currency: 'USD' } });
    expect(br!.options).toEqual({
      seed: 'acme-br',
      terminals: 30,
      currency: 'BRL',
      country: 'BR',
      faults: { latencyMs: 25 },
      rateLimitPerMinute: 250,
      controls: true,
    });
    expect(br!.options.credentials).toBeUndefined();
    expect(br!.options.accountNumber).toBeUndefined();
  });

  it('keeps the single account of today with SIM_ACCOUNTS=us', () => {
    expect(simulatedAccountsFromEnv({ SIM_ACCOUNTS: 'us', SIM_SEED: 'solo' })).toEqual([{ slug: 'us', name: 'Demo US', options: { seed: 'solo', currency: 'USD' } }]);
  });

  it('knows the presets, takes any other slug in USD, and sizes accounts from the colon or a third of the first (at least 12)', () => {
    const accounts = simulatedAccountsFromEnv({ SIM_ACCOUNTS: ' us , eu , au:7, acme-2:20 ,zz', SIM_TERMINALS: '30' });
    expect(accounts.map((a) => [a.slug, a.name, a.options.currency, a.options.country, a.options.terminals, a.options.seed])).toEqual([
      ['us', 'Demo US', 'USD', undefined, 30, undefined],
      ['eu', 'Demo Europe', 'EUR', undefined, 12, 'starlink-demo-eu'],
      ['au', 'Demo Australia', 'AUD', 'AU', 7, 'starlink-demo-au'],
      ['acme-2', 'Simulated acme-2', 'USD', undefined, 20, 'starlink-demo-acme-2'],
      ['zz', 'Simulated zz', 'USD', undefined, 12, 'starlink-demo-zz'],
    ]);
    // A count beside the first slug sizes it when SIM_TERMINALS does not.
    expect(simulatedAccountsFromEnv({ SIM_ACCOUNTS: 'us:300,br' }).map((a) => a.options.terminals)).toEqual([300, 100]);
  });

  it.each([
    ['us,BR', '"BR" is not an account slug'],
    ['us,,br', 'an account is missing between commas'],
    ['us,1br', '"1br" is not an account slug'],
    ['us,br:0', 'the terminals of br must be a whole number from 1 to 1000000'],
    ['us,br:many', 'the terminals of br must be a whole number from 1 to 1000000'],
    ['us,br,br', 'br is listed twice'],
    ['us,a-very-long-account-slug-indeed', '"a-very-long-account-slug-indeed" is not an account slug: lower-case letters, digits and dashes, starting with a letter, at most 24 characters'],
  ])('refuses SIM_ACCOUNTS=%s with a ConfigError naming the mistake', (value, message) => {
    expect(() => simulatedAccountsFromEnv({ SIM_ACCOUNTS: value })).toThrow(ConfigError);
    const text = thrownMessage(() => simulatedAccountsFromEnv({ SIM_ACCOUNTS: value }));
    expect(text).toContain(`SIM_ACCOUNTS: ${message}`);
    expect(text).toContain(`(got "${value}")`);
  });

  it('reports a bad SIM_ACCOUNTS together with the other bad SIM_* variables', () => {
    const text = thrownMessage(() => simulatedAccountsFromEnv({ SIM_ACCOUNTS: 'us,us', SIM_TERMINALS: 'lots', SIM_CLIENT_ID: 'x' }));
    expect(text).toMatch(/^Invalid simulator environment:/);
    expect(text).toContain('SIM_ACCOUNTS: us is listed twice');
    expect(text).toContain('SIM_TERMINALS: must be a whole number');
    expect(text).toContain('SIM_CLIENT_SECRET: SIM_CLIENT_ID and SIM_CLIENT_SECRET must be set together');
  });

  it('refuses a first account sized in two places that disagree', () => {
    expect(thrownMessage(() => simulatedAccountsFromEnv({ SIM_ACCOUNTS: 'us:40,br', SIM_TERMINALS: '50' }))).toContain(
      "SIM_ACCOUNTS: us:40 disagrees with SIM_TERMINALS=50; give the first account's terminals in one place",
    );
    expect(simulatedAccountsFromEnv({ SIM_ACCOUNTS: 'us:50', SIM_TERMINALS: '50' })[0]!.options.terminals).toBe(50);
  });
});

describe('currency', () => {
  const usd = createFleet({ seed: 'money', terminals: 30, now });
  const brl = createFleet({ seed: 'money', terminals: 30, currency: 'BRL', now });

  it('lists the USD prices of the catalog in a USD account, as before', () => {
    expect(usd.currency).toBe('USD');
    const products = usd.products();
    expect(products.map((p) => [p.isoCurrencyCode, p.price])).toEqual(PLANS.map((p) => ['USD', p.price]));
    expect(products.flatMap((p) => [p.dataProducts.topUpProduct, ...(p.dataProducts.dataBlockProducts ?? [])]).every((d) => d.isoCurrencyCode === 'USD')).toBe(true);
    expect(usd.plan('SUB-METERED-50GB')).toBe(PLANS[0]);
  });

  it('converts every price of a BRL account at 5.5 reais to the dollar, to the cent', () => {
    expect(brl.currency).toBe('BRL');
    const products = brl.products();
    expect(products.map((p) => [p.isoCurrencyCode, p.price])).toEqual(PLANS.map((p) => ['BRL', round2(p.price * 5.5)]));
    for (const [k, product] of products.entries()) {
      const plan = PLANS[k]!;
      expect(product.dataProducts.topUpProduct).toMatchObject({ isoCurrencyCode: 'BRL', price: round2(plan.topUpProduct.price * 5.5) });
      expect((product.dataProducts.dataBlockProducts ?? []).map((d) => [d.isoCurrencyCode, d.price])).toEqual(plan.dataBlockProducts.map((d) => ['BRL', round2(d.price * 5.5)]));
    }
    expect(brl.plan('SUB-PRIORITY-BLOCKS')!.price).toBe(137.5);
    expect(brl.usageRecord(0, {}).servicePlan.isoCurrencyCode).toBe('BRL');
    expect(brl.usageRecord(0, {}).servicePlan.overageLine!.pricePerGB).toBe(5.5);
  });

  it('charges the same lines for the same things in either currency, only the unit prices differ', () => {
    const february = Date.UTC(2026, 1, 1);
    const inDollars = usd.cycleCharges(february);
    const inReais = brl.cycleCharges(february);
    expect(inReais.length).toBeGreaterThan(0);
    expect(inReais.map(({ unitPrice: _, ...rest }) => rest)).toEqual(inDollars.map(({ unitPrice: _, ...rest }) => rest));
    expect(inReais.map((c) => c.unitPrice)).toEqual(inDollars.map((c) => round2(c.unitPrice * 5.5)));
  });

  it('keeps the USD figures for a currency it has no rate for, and refuses a code that is not one', () => {
    expect(createFleet({ seed: 'money', terminals: 5, currency: 'CHF', now }).products().map((p) => [p.isoCurrencyCode, p.price])).toEqual(
      PLANS.map((p) => ['CHF', p.price]),
    );
    expect(() => createFleet({ terminals: 5, currency: 'brl', now })).toThrow(/currency must be an ISO 4217 code of three upper-case letters \(got "brl"\)/);
    expect(() => createFleet({ terminals: 5, currency: 'US$', now })).toThrow(RangeError);
  });

  describe('over HTTP', () => {
    const running: RunningSimulator[] = [];
    afterEach(async () => {
      await Promise.all(running.splice(0).map((sim) => sim.close()));
    });
    async function billing(options: SimulatorOptions) {
      const sim = await startSimulator({ ...options, now });
      running.push(sim);
      const token = await simulatorToken(sim);
      const get = async <T>(path: string): Promise<T> => {
        const response = await fetch(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
        expect(response.status).toBe(200);
        return ((await response.json()) as { content: T }).content;
      };
      const list = await get<{ results: { invoiceId: string; currency: string; dueAmount: number }[] }>('/public/v2/billing/invoices');
      const newest = await get<{ currency: string; invoiceLines: { unitPrice: number }[] }>(`/public/v2/billing/invoices/${list.results[0]!.invoiceId}`);
      const balance = await get<{ balances: { currency: string; dueAmount: number }[] }>('/public/v2/billing/balance');
      return { list, newest, balance };
    }

    it('bills a BRL account in BRL: invoices, their lines and the balance', async () => {
      const dollars = await billing({ seed: 'money', terminals: 30 });
      const reais = await billing({ seed: 'money', terminals: 30, currency: 'BRL', country: 'BR' });
      expect(dollars.list.results.every((i) => i.currency === 'USD')).toBe(true);
      expect(dollars.balance.balances).toEqual([{ currency: 'USD', dueAmount: dollars.list.results[0]!.dueAmount }]);
      expect(reais.list.results.every((i) => i.currency === 'BRL')).toBe(true);
      expect(reais.list.results[0]!.invoiceId).toMatch(/^INV-DF-BR-[0-9A-F]{8}$/);
      expect(dollars.list.results[0]!.invoiceId).toMatch(/^INV-DF-US-[0-9A-F]{8}$/);
      expect(reais.newest.currency).toBe('BRL');
      const unitPrices = (invoice: typeof reais.newest) => invoice.invoiceLines.map((line) => line.unitPrice);
      expect(unitPrices(reais.newest)).toEqual(unitPrices(dollars.newest).map((price) => round2(price * 5.5)));
      expect(reais.balance.balances).toEqual([{ currency: 'BRL', dueAmount: reais.list.results[0]!.dueAmount }]);
      // Each line is rounded to the cent on its own: the totals agree to within a cent a line.
      const lines = reais.newest.invoiceLines.length;
      expect(Math.abs(reais.balance.balances[0]!.dueAmount - dollars.balance.balances[0]!.dueAmount * 5.5)).toBeLessThanOrEqual(0.01 * lines);
      expect(reais.balance.balances[0]!.dueAmount).toBeGreaterThan(dollars.balance.balances[0]!.dueAmount * 5);
    });
  });
});

describe('country', () => {
  it('puts every site of a national account in its country, and the account there', () => {
    const fleet = createFleet({ seed: 'starlink-demo-br', terminals: 52, currency: 'BRL', country: 'BR', now });
    expect(fleet.account().regionCode).toBe('BR');
    const addresses = fleet.addresses();
    const regions = new Set<string>();
    const towns = new Set<string | null>();
    for (let k = 0; k < addresses.length; k++) {
      const address = fleet.addressAt(addresses.at(k));
      regions.add(address.regionCode);
      towns.add(address.locality);
    }
    expect([...regions]).toEqual(['BR']);
    expect(towns.size).toBeGreaterThan(4);
    expect(fleet.stats().linesByContinent).toEqual({ 'South America': fleet.stats().serviceLines });
  });

  it('leaves an account without a country spread over the world, and refuses a country it has no towns in', () => {
    expect(Object.keys(createFleet({ terminals: 300, now }).stats().linesByContinent).length).toBeGreaterThan(3);
    expect(createFleet({ terminals: 5, now }).account().regionCode).toBe('US');
    expect(() => createFleet({ terminals: 5, country: 'XX', now })).toThrow(/country XX has no towns/);
    expect(() => createFleet({ terminals: 5, country: 'br', now })).toThrow(/country must be an ISO 3166 alpha-2 code/);
  });
});

describe('two demo accounts', () => {
  const running: RunningSimulator[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sim) => sim.close()));
  });

  /** Every id of an account: its terminals' (stock included), lines', addresses' and invoices', and some it creates. */
  async function idsOf(options: SimulatorOptions) {
    const sim = await startSimulator({ ...options, now });
    running.push(sim);
    const fleet: Fleet = sim.fleet;
    const ids = { terminals: [] as string[], kits: [] as string[], dishes: [] as string[], lines: [] as string[], addresses: [] as string[], invoices: [] as string[], pools: [] as string[] };
    const known = fleet.size + fleet.stockKitSerials().length;
    for (let t = 0; t < known; t++) {
      const terminal = fleet.terminal(t);
      ids.terminals.push(terminal.userTerminalId);
      ids.kits.push(terminal.kitSerialNumber);
      ids.dishes.push(terminal.dishSerialNumber);
    }
    for (let k = 0; k < 3; k++) {
      const address = fleet.createAddress({ addressLines: [`${k + 1} Main Street`], formattedAddress: `${k + 1} Main Street`, latitude: -15.6 + k, longitude: -56.1 } as never);
      if (!address.ok) throw new Error(address.message);
      const line = fleet.createServiceLine({ addressReferenceId: address.value.addressReferenceId, productReferenceId: 'SUB-METERED-50GB' });
      if (!line.ok) throw new Error(line.message);
    }
    ids.lines.push(...fleet.serviceLineNumbers());
    const addresses = fleet.addresses();
    for (let k = 0; k < addresses.length; k++) ids.addresses.push(fleet.addressAt(addresses.at(k)).addressReferenceId);
    ids.pools.push(...fleet.dataPools().map((pool) => pool.dataPoolId));
    const token = await simulatorToken(sim);
    const response = await fetch(`${sim.baseUrl}/public/v2/billing/invoices`, { headers: { authorization: `Bearer ${token}` } });
    ids.invoices.push(...((await response.json()) as { content: { results: { invoiceId: string }[] } }).content.results.map((i) => i.invoiceId));
    return { accountNumber: fleet.accountNumber, ids };
  }

  it('share no id of any kind', async () => {
    const [us, br] = simulatedAccountsFromEnv({});
    const a = await idsOf(us!.options);
    const b = await idsOf(br!.options);
    expect(a.accountNumber).not.toBe(b.accountNumber);
    for (const kind of Object.keys(a.ids) as (keyof typeof a.ids)[]) {
      expect(a.ids[kind].length, kind).toBeGreaterThan(0);
      expect(new Set(a.ids[kind]).size, `${kind} repeat within an account`).toBe(a.ids[kind].length);
      const theirs = new Set(b.ids[kind]);
      expect(a.ids[kind].filter((id) => theirs.has(id)), `${kind} shared`).toEqual([]);
    }
    // The serials share one namespace at the provider: a kit serial of one is no dish serial of the other.
    const all = (x: typeof a) => [...x.ids.terminals, ...x.ids.kits, ...x.ids.dishes];
    const bAll = new Set(all(b));
    expect(all(a).filter((id) => bAll.has(id))).toEqual([]);
  });
});
