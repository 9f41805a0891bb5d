// Deterministic demo accounts: the same rows (relative to "now") on every fresh database, so
// screenshots, manual checks and browser tests see one known world.
import { cycleOf, shiftCycle } from '../src/domain/billing';
import { CURRENCY_PATTERN, currencyExponent, multiply } from '../src/domain/money';
import type { NewCustomerRow, NewUserRow } from './db/schema';
import { prng } from './random';

export const DEMO_ADMIN_EMAIL = 'admin@demo.local';
export const DEMO_ADMIN_NAME = 'Demo Administrator';
/** Portal users in all, counting the first administrator. */
export const DEMO_USER_TOTAL = 48;
export const DEMO_CUSTOMER_TOTAL = 24;
/** app_meta keys: the demo accounts were seeded; the demo's terminals were handed to its customers. */
export const DEMO_SEEDED_KEY = 'demo_seeded';
export const DEMO_TERMINALS_KEY = 'demo_terminals_assigned';
/**
 * The one demo customer who can sign in (the customer area needs someone to show it):
 * active, no expiry, no MFA, and among those the demo hands lines to. Its password is generated
 * on the first start and printed once, like the demo administrator's.
 */
export const DEMO_SIGN_IN_CUSTOMER_INDEX = 5;
const DEMO_SEED = 0x5a7e11;

const DAY = 86_400_000;

/** Seeded helpers over the shared generator, so the demo data is the same on every machine. */
function demoRandom(seed: number) {
  const next = prng(seed);
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof demoRandom>;

const FIRST_NAMES = [
  'Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Felipe', 'Gabriela', 'Hugo', 'Isabel', 'Javier',
  'Karina', 'Lucas', 'Marta', 'Nicolas', 'Olivia', 'Pablo', 'Quentin', 'Rosa', 'Samuel', 'Teresa',
  'Ulises', 'Valeria', 'William', 'Ximena', 'Yusuf', 'Zoe', 'Amara', 'Benedikt', 'Chloe', 'Dmitri',
  'Emeka', 'Fatima', 'Grace', 'Hiroshi', 'Ingrid', 'Jonas', 'Kofi', 'Leila', 'Mateo', 'Nadia',
  'Oscar', 'Priya', 'Rafael', 'Sofia', 'Tomas', 'Uma', 'Victor', 'Wanjiru',
] as const;
const LAST_NAMES = [
  'Lima', 'Okafor', 'Schmidt', 'Fernandes', 'Nakamura', 'Rossi', 'Haddad', 'Kowalski', 'Mensah', 'Oliveira',
  'Petrov', 'Quispe', 'Andersson', 'Banerjee', 'Costa', 'Dubois', 'Eriksen', 'Garcia', 'Horvat', 'Ibrahim',
  'Jensen', 'Kariuki', 'Laurent', 'Moreno', 'Novak', "O'Brien", 'Pereira', 'Ramos', 'Santos', 'Tanaka',
] as const;

const USER_BLOCK_REASONS = [
  'Left the company; access revoked pending offboarding review',
  'Repeated suspicious sign-ins reported by the security team',
] as const;

interface CompanySeed {
  company: string;
  domain: string;
  city: string;
}

const COMPANIES: readonly CompanySeed[] = [
  { company: 'Andes Copper Logistics', domain: 'andescopper.example', city: 'Antofagasta, Chile' },
  { company: 'Northwind Maritime Services', domain: 'northwindmaritime.example', city: 'Bergen, Norway' },
  { company: 'Sahel Agritech Cooperative', domain: 'sahelagritech.example', city: 'Niamey, Niger' },
  { company: 'Pacific Rim Aquaculture', domain: 'pacificrimaqua.example', city: 'Puerto Montt, Chile' },
  { company: 'Outback Rail & Freight', domain: 'outbackrail.example', city: 'Alice Springs, Australia' },
  { company: 'Boreal Timber Holdings', domain: 'borealtimber.example', city: 'Prince George, Canada' },
  { company: 'Atlas Mountain Resorts', domain: 'atlasresorts.example', city: 'Ouarzazate, Morocco' },
  { company: 'Coral Coast Medical Network', domain: 'coralcoastmed.example', city: 'Cairns, Australia' },
  { company: 'Highland Wind Energy', domain: 'highlandwind.example', city: 'Inverness, United Kingdom' },
  { company: 'Amazonia Research Institute', domain: 'amazoniaresearch.example', city: 'Manaus, Brazil' },
  { company: 'Kalahari Mining Group', domain: 'kalaharimining.example', city: 'Jwaneng, Botswana' },
  { company: 'Baltic Offshore Drilling', domain: 'balticoffshore.example', city: 'Gdansk, Poland' },
  { company: 'Patagonia Expedition Co.', domain: 'patagoniaexpeditions.example', city: 'El Chalten, Argentina' },
  { company: 'Great Plains Grain Elevators', domain: 'greatplainsgrain.example', city: 'Dodge City, United States' },
  { company: 'Yukon Emergency Services', domain: 'yukonems.example', city: 'Whitehorse, Canada' },
  { company: 'Serengeti Safari Lodges', domain: 'serengetilodges.example', city: 'Arusha, Tanzania' },
  { company: 'Fjordline Ferries', domain: 'fjordline.example', city: 'Alesund, Norway' },
  { company: 'Altiplano Solar Farms', domain: 'altiplanosolar.example', city: 'Uyuni, Bolivia' },
  { company: 'Gobi Construction Partners', domain: 'gobiconstruction.example', city: 'Dalanzadgad, Mongolia' },
  { company: 'Tasman Fisheries Ltd', domain: 'tasmanfisheries.example', city: 'Nelson, New Zealand' },
  { company: 'Sierra Madre Water Authority', domain: 'sierramadrewater.example', city: 'Durango, Mexico' },
  { company: 'Arctic Circle Logistics', domain: 'arcticcircle.example', city: 'Tromso, Norway' },
  { company: 'Red Sea Desalination', domain: 'redseadesal.example', city: 'Yanbu, Saudi Arabia' },
  { company: 'Mekong Delta Telehealth', domain: 'mekongtelehealth.example', city: 'Can Tho, Vietnam' },
];

const CUSTOMER_BLOCK_REASONS = [
  'Payment overdue by more than 90 days',
  'Capacity resold to third parties in breach of the service agreement',
  'Account under fraud review',
] as const;

/** Customer status and expiry per company index, so every bucket the UI shows is represented. */
const CUSTOMER_STATUS = ['active', 'active', 'pending', 'active', 'blocked', 'active', 'active', 'pending', 'active', 'active', 'blocked', 'active', 'pending', 'active', 'active', 'active', 'pending', 'active', 'blocked', 'active', 'active', 'pending', 'active', 'active'] as const;
const CUSTOMER_EXPIRY = ['later', 'soon', 'later', 'expired', 'later', 'none', 'later', 'soon', 'later', 'expired', 'none', 'later', 'soon', 'later', 'none', 'later', 'later', 'soon', 'expired', 'later', 'none', 'later', 'later', 'none'] as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const mfaSecret = (rng: Rng) => Array.from({ length: 32 }, () => rng.pick([...BASE32])).join('');
const slug = (s: string) => s.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '');
const ip = (rng: Rng) => `${rng.pick([41, 102, 154, 177, 186, 196, 203])}.${rng.int(1, 254)}.${rng.int(0, 254)}.${rng.int(1, 254)}`;
const phone = (rng: Rng) => `+${rng.int(1, 99)} ${rng.int(100, 999)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`;

function uniqueNames(rng: Rng, count: number): { first: string; last: string }[] {
  const seen = new Set<string>();
  const names: { first: string; last: string }[] = [];
  while (names.length < count) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    if (seen.has(`${first} ${last}`)) continue;
    seen.add(`${first} ${last}`);
    names.push({ first, last });
  }
  return names;
}

export interface DemoData {
  users: NewUserRow[];
  customers: NewCustomerRow[];
  /** The email of the demo customer who can sign in (with `signInHash`), when one was given. */
  signInCustomerEmail: string | null;
}

/**
 * Portal users besides the first administrator (`DEMO_USER_TOTAL - 1` of them) and the
 * customers, all carrying `passwordHash` (one throwaway hash: demo accounts are not for signing in),
 * except the one customer at DEMO_SIGN_IN_CUSTOMER_INDEX, who gets `signInHash` when it is given.
 */
export function generateDemoData(now: Date, passwordHash: string, signInHash: string | null = null): DemoData {
  const rng = demoRandom(DEMO_SEED);
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY - rng.int(0, DAY - 1));
  const inDays = (days: number) => new Date(now.getTime() + days * DAY);
  const names = uniqueNames(rng, DEMO_USER_TOTAL - 1 + DEMO_CUSTOMER_TOTAL);

  const users: NewUserRow[] = names.slice(0, DEMO_USER_TOTAL - 1).map(({ first, last }, i) => {
    const createdAt = at(rng.int(30, 540));
    const blockedReason = i === 11 ? USER_BLOCK_REASONS[0] : i === 29 ? USER_BLOCK_REASONS[1] : null;
    const suspended = !blockedReason && i % 8 === 5;
    const mfaEnabled = i % 9 === 0 || rng.chance(0.3);
    const lastLogin = suspended || rng.chance(0.2) ? null : at(rng.int(0, 29));
    return {
      email: `${slug(first)}.${slug(last)}@demo.local`,
      name: `${first} ${last}`,
      passwordHash,
      role: i % 8 === 0 ? 'admin' : 'user',
      isActive: !suspended,
      mfaEnabled,
      mfaSecret: mfaEnabled ? mfaSecret(rng) : null,
      // A few contractors have end dates, one already passed.
      accountExpiresAt: i === 17 ? at(12) : i % 15 === 4 ? inDays(rng.int(40, 200)) : null,
      blockedEnabled: blockedReason !== null,
      blockedReason,
      blockedAt: blockedReason ? at(rng.int(1, 20)) : null,
      lastLogin,
      lastIp: lastLogin ? ip(rng) : null,
      createdAt,
      updatedAt: lastLogin ?? createdAt,
    };
  });

  let blockedCount = 0;
  const customers: NewCustomerRow[] = COMPANIES.map((c, i) => {
    const contact = names[DEMO_USER_TOTAL - 1 + i] as { first: string; last: string };
    const status = CUSTOMER_STATUS[i] ?? 'active';
    const expiry = CUSTOMER_EXPIRY[i] ?? 'none';
    const createdAt = at(rng.int(40, 700));
    const blockedReason = status === 'blocked' ? (CUSTOMER_BLOCK_REASONS[blockedCount++ % CUSTOMER_BLOCK_REASONS.length] ?? null) : null;
    const mfaEnabled = status === 'active' && i % 3 === 0;
    const lastLogin = status === 'active' && i % 2 === 0 ? at(rng.int(0, 20)) : null;
    const accountExpiresAt =
      expiry === 'expired' ? at(rng.int(1, 60))
      : expiry === 'soon' ? inDays(rng.int(2, 28))
      : expiry === 'later' ? inDays(rng.int(60, 700))
      : null;
    return {
      email: `${slug(contact.first)}.${slug(contact.last)}@${c.domain}`,
      name: `${contact.first} ${contact.last}`,
      company: c.company,
      phone: phone(rng),
      address: c.city,
      passwordHash: i === DEMO_SIGN_IN_CUSTOMER_INDEX && signInHash ? signInHash : passwordHash,
      isActive: status !== 'pending',
      mfaEnabled,
      mfaSecret: mfaEnabled ? mfaSecret(rng) : null,
      accountExpiresAt,
      blockedEnabled: blockedReason !== null,
      blockedReason,
      blockedAt: blockedReason ? at(rng.int(1, 30)) : null,
      lastLogin,
      lastIp: lastLogin ? ip(rng) : null,
      createdAt,
      updatedAt: lastLogin ?? createdAt,
    };
  });

  const signIn = customers[DEMO_SIGN_IN_CUSTOMER_INDEX];
  return { users, customers, signInCustomerEmail: signInHash && signIn ? signIn.email : null };
}

/** Share of the synced lines the demo hands to customers; the rest stay free to assign by hand. */
const DEMO_ASSIGNED_SHARE = 2 / 3;

/**
 * Which lines each demo customer gets once the first sync has filled the inventory: two to nine
 * each, in the order given, until two thirds of the lines are handed out (or every customer has
 * some). The same customers and lines give the same plan.
 */
export function planDemoAssignments(customerIds: readonly string[], lines: readonly string[]): { customerId: string; lines: string[] }[] {
  const rng = demoRandom(DEMO_SEED + 1);
  const share = Math.floor(lines.length * DEMO_ASSIGNED_SHARE);
  const plan: { customerId: string; lines: string[] }[] = [];
  let next = 0;
  for (const customerId of customerIds) {
    if (next >= share) break;
    const count = Math.min(rng.int(2, 9), share - next);
    plan.push({ customerId, lines: lines.slice(next, next + count) });
    next += count;
  }
  return plan;
}

// ---- The demo price list ------------------------------------------------------------

export const DEMO_PRICE_NOTE = 'Demo price list';
/** The plan the demo's negotiated price below the provider's cost is on (a leak to find on the board). */
export const DEMO_BELOW_COST_PRODUCT = 'SUB-METERED-1TB';
export const DEMO_BELOW_COST_NOTE = 'Demo: negotiated below cost';
export const DEMO_DISCOUNT_NOTE = 'Demo: 10 % off every product';

/** A product as the demo prices it: what the provider charges for it. */
export interface DemoProduct {
  productReferenceId: string;
  price: number | null;
  isoCurrencyCode: string | null;
}

export interface DemoPrice {
  productReferenceId: string;
  currency: string;
  monthlyMinor: number;
  overagePerGbMinor: number;
  topUpMinor: number;
  effectiveFrom: string;
  note: string;
  createdBy: null;
}

export interface DemoCustomerPrice {
  customerId: string;
  productReferenceId: string | null;
  effectiveFrom: string;
  effectiveUntil: null;
  discountBp: number | null;
  monthlyMinor: number | null;
  overagePerGbMinor: null;
  topUpMinor: null;
  note: string;
  createdBy: null;
}

/** The first day of the month a year before `now`: the demo's prices cover every cycle it shows. */
export const demoPricesFrom = (now: Date) => `${shiftCycle(cycleOf(now), -12)}-01`;

/** `units` whole units of a currency, in its minor units. */
const wholeUnits = (units: number, currency: string) => units * 10 ** currencyExponent(currency);

/**
 * One list price per plan the provider sells (its data products, ids DATA-… and OVERAGE-…, are
 * not plans and get none): monthly = the provider's price × 1.3 rounded up to a whole unit, less
 * one minor unit (65 → 84.99); 2.00 per GB of overage on metered plans, else 0; 65.00 a top-up.
 * Products without a provider price are left for an administrator to price.
 */
export function planDemoPrices(products: readonly DemoProduct[], now: Date): DemoPrice[] {
  const effectiveFrom = demoPricesFrom(now);
  return products
    .filter((product) => !/^(DATA|OVERAGE)-/.test(product.productReferenceId) && product.price !== null && product.price >= 0)
    .map((product) => {
      const code = product.isoCurrencyCode?.trim().toUpperCase() ?? '';
      const currency = CURRENCY_PATTERN.test(code) ? code : 'USD';
      const unit = wholeUnits(1, currency);
      // Whole minor units first (the provider's price may carry more decimals), then × 13 / 10 up to a whole unit.
      const costMinor = multiply(unit, product.price as number);
      const monthlyMinor = Math.max(0, Math.ceil((costMinor * 13) / (10 * unit)) * unit - 1);
      return {
        productReferenceId: product.productReferenceId,
        currency,
        monthlyMinor,
        overagePerGbMinor: product.productReferenceId.startsWith('SUB-METERED') ? wholeUnits(2, currency) : 0,
        topUpMinor: wholeUnits(65, currency),
        effectiveFrom,
        note: DEMO_PRICE_NOTE,
        createdBy: null,
      };
    });
}

/**
 * Two customers' own prices, from the list's first day: a monthly 20.00 on DEMO_BELOW_COST_PRODUCT
 * (below what the provider charges: the reconciliation board's seeded leak) for the first customer
 * by name holding a line on that plan (else the first holding any line), and 10 % off every
 * product for the next one by name. `holders` are the active customers holding lines, by name.
 */
export function planDemoCustomerPrices(holders: readonly { id: string; products: readonly string[] }[], prices: readonly DemoPrice[], now: Date): DemoCustomerPrice[] {
  const effectiveFrom = demoPricesFrom(now);
  const planned: DemoCustomerPrice[] = [];
  const base = { effectiveFrom, effectiveUntil: null, overagePerGbMinor: null, topUpMinor: null, createdBy: null } as const;
  const plan = prices.find((p) => p.productReferenceId === DEMO_BELOW_COST_PRODUCT);
  const below = plan ? (holders.find((h) => h.products.includes(DEMO_BELOW_COST_PRODUCT)) ?? holders[0]) : undefined;
  if (plan && below) {
    planned.push({ ...base, customerId: below.id, productReferenceId: plan.productReferenceId, discountBp: null, monthlyMinor: wholeUnits(20, plan.currency), note: DEMO_BELOW_COST_NOTE });
  }
  const discounted = holders.find((h) => h.id !== below?.id);
  if (discounted && prices.length > 0) {
    planned.push({ ...base, customerId: discounted.id, productReferenceId: null, discountBp: 1000, monthlyMinor: null, note: DEMO_DISCOUNT_NOTE });
  }
  return planned;
}
