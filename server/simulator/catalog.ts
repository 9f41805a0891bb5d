// Fixed reference data for the generated fleet: the plans on sale, the terminal models (from
// ../provider/hardware.ts) and the places terminals are installed. Plain data; fleet.ts picks from
// it with seeded draws.

/** The currency the price list below is in, and every account's unless it is given another. */
export const DEFAULT_CURRENCY = 'USD';

/**
 * Units of each currency to one US dollar, fixed: an account billed in another currency sees the
 * USD list converted at these, so its prices look like the provider's local ones without tracking
 * the market. A currency not listed keeps the USD figures.
 */
export const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1,
  BRL: 5.5,
  EUR: 0.92,
  AUD: 1.5,
  GBP: 0.79,
  CAD: 1.36,
  MXN: 17,
};

/** A USD list price in `currency`, to the cent. */
export function priceIn(currency: string, usd: number): number {
  const rate = USD_RATES[currency] ?? 1;
  // The USD list is already in cents: converting it must not move a figure by a rounding error.
  return rate === 1 ? usd : Math.round(usd * rate * 100) / 100;
}

/** 1 TB = 1,000 GB, as the provider counts. */
export const GB_PER_TB = 1000;

export type PlanKind = 'metered' | 'priority';

export interface DataProduct {
  productId: string;
  price: number;
  dataAmount: number;
  dataUnit: 'GB' | 'TB';
}

export interface Plan {
  productReferenceId: string;
  name: string;
  kind: PlanKind;
  /** Monthly price of the subscription itself. */
  price: number;
  isSla: boolean;
  /** Priority data included each cycle; 0 for block plans (their blocks set the limit). */
  includedGB: number;
  /** What opting into overage buys: per-GB priority data on metered plans, blocks on Priority. */
  overage: { productId: string; name: string; description: string; pricePerGB: number };
  topUpProduct: DataProduct;
  dataBlockProducts: DataProduct[];
}

export const TOP_UP_50GB: DataProduct = { productId: 'DATA-TOPUP-50GB', price: 50, dataAmount: 50, dataUnit: 'GB' };
export const BLOCK_50GB: DataProduct = { productId: 'DATA-BLOCK-PRIORITY-50GB', price: 65, dataAmount: 50, dataUnit: 'GB' };
export const BLOCK_1TB: DataProduct = { productId: 'DATA-BLOCK-PRIORITY-1TB', price: 990, dataAmount: 1, dataUnit: 'TB' };

export const PLAN_50GB: Plan = {
  productReferenceId: 'SUB-METERED-50GB',
  name: 'Local Priority 50 GB',
  kind: 'metered',
  price: 65,
  isSla: false,
  includedGB: 50,
  overage: {
    productId: 'OVERAGE-PRIORITY-PER-GB',
    name: 'Additional Priority data',
    description: 'Keep Priority speeds after the included data, billed per GB',
    pricePerGB: 1,
  },
  topUpProduct: TOP_UP_50GB,
  dataBlockProducts: [],
};

export const PLAN_1TB: Plan = {
  productReferenceId: 'SUB-METERED-1TB',
  name: 'Local Priority 1 TB',
  kind: 'metered',
  price: 165,
  isSla: false,
  includedGB: 1000,
  overage: PLAN_50GB.overage,
  topUpProduct: TOP_UP_50GB,
  dataBlockProducts: [],
};

export const PLAN_PRIORITY: Plan = {
  productReferenceId: 'SUB-PRIORITY-BLOCKS',
  name: 'Priority (recurring data blocks)',
  kind: 'priority',
  price: 25,
  isSla: true,
  includedGB: 0,
  overage: {
    productId: TOP_UP_50GB.productId,
    name: 'Automatic top-up',
    description: 'Buys a 50 GB Priority block whenever the recurring blocks run out',
    pricePerGB: TOP_UP_50GB.price / TOP_UP_50GB.dataAmount,
  },
  topUpProduct: TOP_UP_50GB,
  dataBlockProducts: [BLOCK_50GB, BLOCK_1TB],
};

export const PLANS: readonly Plan[] = [PLAN_50GB, PLAN_1TB, PLAN_PRIORITY];

export const dataProductGB = (product: DataProduct) =>
  product.dataUnit === 'TB' ? product.dataAmount * GB_PER_TB : product.dataAmount;

// ---- Terminal models ---------------------------------------------------------------------------

// The model table lives with the provider client (the sync reads it too): one table, two users.
export { MODELS, modelOf, type TerminalModel } from '../provider/hardware';

export const SOFTWARE_VERSIONS: readonly { version: string; weight: number }[] = [
  { version: '2026.02.11.mr62310', weight: 72 },
  { version: '2026.01.28.mr61455', weight: 22 },
  { version: '2025.12.03.mr59210', weight: 6 },
];

// ---- Places ------------------------------------------------------------------------------------

export type Continent = 'North America' | 'South America' | 'Europe' | 'Oceania' | 'Africa' | 'Asia';

export interface Place {
  continent: Continent;
  locality: string;
  administrativeArea: string;
  administrativeAreaCode: string;
  /** Country name, as the provider's `region`. */
  region: string;
  regionCode: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  streets: readonly string[];
  /** Typical round-trip to the nearest PoP, in ms. */
  popLatencyMs: number;
}

const place = (
  continent: Continent,
  locality: string,
  administrativeArea: string,
  administrativeAreaCode: string,
  region: string,
  regionCode: string,
  postalCode: string,
  latitude: number,
  longitude: number,
  streets: readonly string[],
  popLatencyMs: number,
): Place => ({ continent, locality, administrativeArea, administrativeAreaCode, region, regionCode, postalCode, latitude, longitude, streets, popLatencyMs });

export const PLACES: readonly Place[] = [
  place('North America', 'Hawthorne', 'California', 'CA', 'United States', 'US', '90250', 33.916, -118.352, ['Rocket Road', 'Prairie Avenue', 'Crenshaw Boulevard'], 27),
  place('North America', 'Fairbanks', 'Alaska', 'AK', 'United States', 'US', '99701', 64.838, -147.716, ['Airport Way', 'College Road', 'Cushman Street'], 38),
  place('North America', 'Bozeman', 'Montana', 'MT', 'United States', 'US', '59715', 45.677, -111.043, ['Main Street', 'Bridger Drive', 'Jackrabbit Lane'], 31),
  place('North America', 'Midland', 'Texas', 'TX', 'United States', 'US', '79701', 31.997, -102.078, ['Wall Street', 'Loop 250', 'Garfield Street'], 29),
  place('North America', 'Williston', 'North Dakota', 'ND', 'United States', 'US', '58801', 48.147, -103.618, ['Main Street', '2nd Avenue West', 'University Avenue'], 33),
  place('North America', 'Moab', 'Utah', 'UT', 'United States', 'US', '84532', 38.573, -109.55, ['Main Street', 'Kane Creek Boulevard', 'Mill Creek Drive'], 30),
  place('North America', 'Juneau', 'Alaska', 'AK', 'United States', 'US', '99801', 58.302, -134.42, ['Egan Drive', 'Glacier Highway', 'Franklin Street'], 41),
  place('North America', 'Whitehorse', 'Yukon', 'YT', 'Canada', 'CA', 'Y1A 2C6', 60.721, -135.057, ['Main Street', 'Alaska Highway', 'Range Road'], 40),
  place('North America', 'Fort McMurray', 'Alberta', 'AB', 'Canada', 'CA', 'T9H 1A1', 56.727, -111.381, ['Franklin Avenue', 'Thickwood Boulevard', 'MacDonald Drive'], 34),
  place('North America', 'Yellowknife', 'Northwest Territories', 'NT', 'Canada', 'CA', 'X1A 2L9', 62.454, -114.372, ['Franklin Avenue', 'Old Airport Road', 'Kam Lake Road'], 39),
  place('North America', 'Ensenada', 'Baja California', 'BC', 'Mexico', 'MX', '22800', 31.866, -116.596, ['Avenida Reforma', 'Calle Primera', 'Boulevard Costero'], 36),
  place('South America', 'Puerto Montt', 'Los Lagos', 'LL', 'Chile', 'CL', '5480000', -41.469, -72.942, ['Avenida Diego Portales', 'Calle Urmeneta', 'Avenida Angelmó'], 44),
  place('South America', 'Punta Arenas', 'Magallanes', 'MA', 'Chile', 'CL', '6200000', -53.163, -70.917, ['Avenida Colón', 'Calle Bories', 'Avenida España'], 52),
  place('South America', 'Manaus', 'Amazonas', 'AM', 'Brazil', 'BR', '69005-000', -3.119, -60.022, ['Avenida Eduardo Ribeiro', 'Rua Barroso', 'Avenida Djalma Batista'], 48),
  place('South America', 'Cuiabá', 'Mato Grosso', 'MT', 'Brazil', 'BR', '78005-000', -15.601, -56.097, ['Avenida Getúlio Vargas', 'Rua Barão de Melgaço', 'Avenida do CPA'], 43),
  place('South America', 'Cusco', 'Cusco', 'CUS', 'Peru', 'PE', '08002', -13.532, -71.967, ['Avenida El Sol', 'Calle Plateros', 'Avenida de la Cultura'], 47),
  place('South America', 'Ushuaia', 'Tierra del Fuego', 'V', 'Argentina', 'AR', 'V9410', -54.801, -68.303, ['Avenida San Martín', 'Calle Maipú', 'Avenida Perito Moreno'], 55),
  place('South America', 'Villavicencio', 'Meta', 'MET', 'Colombia', 'CO', '500001', 4.142, -73.627, ['Calle 38', 'Avenida 40', 'Carrera 33'], 42),
  place('Europe', 'Tromsø', 'Troms', '55', 'Norway', 'NO', '9008', 69.649, 18.956, ['Storgata', 'Sjøgata', 'Hansine Hansens veg'], 37),
  place('Europe', 'Inverness', 'Scotland', 'SCT', 'United Kingdom', 'GB', 'IV1 1HY', 57.478, -4.225, ['High Street', 'Academy Street', 'Longman Road'], 30),
  place('Europe', 'Aberdeen', 'Scotland', 'SCT', 'United Kingdom', 'GB', 'AB11 5BN', 57.149, -2.094, ['Union Street', 'Market Street', 'Wellington Road'], 29),
  place('Europe', 'Galway', 'County Galway', 'G', 'Ireland', 'IE', 'H91 E2K3', 53.271, -9.057, ['Shop Street', 'Dock Road', 'Headford Road'], 31),
  place('Europe', 'Brest', 'Bretagne', 'BRE', 'France', 'FR', '29200', 48.39, -4.486, ['Rue de Siam', 'Quai de la Douane', 'Boulevard Jean Moulin'], 28),
  place('Europe', 'Garmisch-Partenkirchen', 'Bayern', 'BY', 'Germany', 'DE', '82467', 47.492, 11.096, ['Bahnhofstraße', 'Zugspitzstraße', 'Hauptstraße'], 26),
  place('Europe', 'Rovaniemi', 'Lapland', '10', 'Finland', 'FI', '96100', 66.503, 25.729, ['Koskikatu', 'Valtakatu', 'Rovakatu'], 35),
  place('Europe', 'Cádiz', 'Andalucía', 'AN', 'Spain', 'ES', '11001', 36.527, -6.288, ['Calle Ancha', 'Avenida del Puerto', 'Calle Sagasta'], 33),
  place('Europe', 'Olbia', 'Sardegna', 'SS', 'Italy', 'IT', '07026', 40.923, 9.498, ['Corso Umberto', 'Via Roma', 'Viale Aldo Moro'], 34),
  place('Europe', 'Zakopane', 'Małopolskie', 'MA', 'Poland', 'PL', '34-500', 49.299, 19.949, ['Krupówki', 'Kościuszki', 'Jagiellońska'], 30),
  place('Oceania', 'Kalgoorlie', 'Western Australia', 'WA', 'Australia', 'AU', '6430', -30.749, 121.466, ['Hannan Street', 'Maritana Street', 'Great Eastern Highway'], 45),
  place('Oceania', 'Alice Springs', 'Northern Territory', 'NT', 'Australia', 'AU', '0870', -23.698, 133.881, ['Todd Street', 'Stuart Highway', 'Larapinta Drive'], 49),
  place('Oceania', 'Broome', 'Western Australia', 'WA', 'Australia', 'AU', '6725', -17.955, 122.24, ['Carnarvon Street', 'Frederick Street', 'Cable Beach Road'], 51),
  place('Oceania', 'Longreach', 'Queensland', 'QLD', 'Australia', 'AU', '4730', -23.442, 144.249, ['Eagle Street', 'Duck Street', 'Landsborough Highway'], 42),
  place('Oceania', 'Queenstown', 'Otago', 'OTA', 'New Zealand', 'NZ', '9300', -45.031, 168.663, ['Shotover Street', 'Frankton Road', 'Gorge Road'], 40),
  place('Oceania', 'Gisborne', 'Gisborne', 'GIS', 'New Zealand', 'NZ', '4010', -38.662, 178.018, ['Gladstone Road', 'Grey Street', 'Awapuni Road'], 41),
  place('Oceania', 'Nadi', 'Western', 'W', 'Fiji', 'FJ', '', -17.803, 177.416, ["Queen's Road", 'Main Street', 'Votualevu Road'], 58),
  place('Oceania', 'Lae', 'Morobe', 'MPL', 'Papua New Guinea', 'PG', '411', -6.723, 146.996, ['Huon Road', 'Markham Road', 'Milford Haven Road'], 62),
  place('Africa', 'Nanyuki', 'Laikipia', '31', 'Kenya', 'KE', '10400', 0.012, 37.073, ['Kenyatta Avenue', 'Laikipia Road', 'Market Street'], 56),
  place('Africa', 'Arusha', 'Arusha', '01', 'Tanzania', 'TZ', '23100', -3.367, 36.683, ['Sokoine Road', 'Boma Road', 'Old Moshi Road'], 58),
  place('Africa', 'Kigali', 'Kigali', '01', 'Rwanda', 'RW', '', -1.95, 30.059, ['KN 3 Road', 'KG 7 Avenue', 'KK 15 Road'], 61),
  place('Africa', 'Maun', 'North-West', 'NW', 'Botswana', 'BW', '', -19.983, 23.416, ['Mathiba I Road', 'Airport Road', 'Sir Seretse Khama Road'], 54),
  place('Africa', 'Upington', 'Northern Cape', 'NC', 'South Africa', 'ZA', '8801', -28.448, 21.256, ['Schröder Street', 'Market Street', 'Le Roux Street'], 47),
  place('Africa', 'Swakopmund', 'Erongo', 'ER', 'Namibia', 'NA', '13001', -22.678, 14.527, ['Sam Nujoma Avenue', 'Tobias Hainyeko Street', 'Hendrik Witbooi Street'], 52),
  place('Africa', 'Pemba', 'Cabo Delgado', 'P', 'Mozambique', 'MZ', '3200', -12.974, 40.518, ['Avenida Marginal', 'Rua do Comércio', 'Avenida 25 de Setembro'], 63),
  place('Africa', 'Lagos', 'Lagos', 'LA', 'Nigeria', 'NG', '101241', 6.455, 3.394, ['Broad Street', 'Adeola Odeku Street', 'Awolowo Road'], 50),
  place('Asia', 'Ulaanbaatar', 'Ulaanbaatar', '1', 'Mongolia', 'MN', '14200', 47.918, 106.917, ['Peace Avenue', 'Chinggis Avenue', 'Seoul Street'], 57),
  place('Asia', 'Puerto Princesa', 'Palawan', 'PLW', 'Philippines', 'PH', '5300', 9.74, 118.735, ['Rizal Avenue', 'Malvar Street', 'National Highway'], 46),
  place('Asia', 'Kota Kinabalu', 'Sabah', '12', 'Malaysia', 'MY', '88000', 5.98, 116.073, ['Jalan Gaya', 'Jalan Tun Razak', 'Jalan Lintas'], 44),
  place('Asia', 'Labuan Bajo', 'Nusa Tenggara Timur', 'NT', 'Indonesia', 'ID', '86554', -8.496, 119.888, ['Jalan Soekarno Hatta', 'Jalan Pantai Pede', 'Jalan Trans Flores'], 53),
  place('Asia', 'Sapporo', 'Hokkaido', '01', 'Japan', 'JP', '060-0001', 43.062, 141.354, ['Kita 1-jo Nishi', 'Odori Nishi', 'Minami 4-jo Nishi'], 32),
];

/**
 * More towns for an account pinned to one country (see FleetOptions.country), so that its sites
 * are not all in the two or three of PLACES. Kept apart from PLACES: the global fleet draws from
 * PLACES alone, and adding to it would move every site of every existing seed.
 */
export const NATIONAL_PLACES: readonly Place[] = [
  place('South America', 'Porto Velho', 'Rondônia', 'RO', 'Brazil', 'BR', '76801-000', -8.761, -63.9, ['Avenida Sete de Setembro', 'Rua Dom Pedro II', 'Avenida Jorge Teixeira'], 46),
  place('South America', 'Santarém', 'Pará', 'PA', 'Brazil', 'BR', '68005-000', -2.443, -54.708, ['Avenida Tapajós', 'Rua Siqueira Campos', 'Avenida Mendonça Furtado'], 45),
  place('South America', 'Boa Vista', 'Roraima', 'RR', 'Brazil', 'BR', '69301-000', 2.82, -60.672, ['Avenida Ville Roy', 'Rua Araújo Filho', 'Avenida Capitão Ene Garcez'], 49),
  place('South America', 'Palmas', 'Tocantins', 'TO', 'Brazil', 'BR', '77001-000', -10.184, -48.334, ['Avenida Teotônio Segurado', 'Avenida JK', 'Avenida NS-1'], 41),
  place('South America', 'Barreiras', 'Bahia', 'BA', 'Brazil', 'BR', '47800-000', -12.153, -44.99, ['Avenida Clériston Andrade', 'Rua Barão de Cotegipe', 'Avenida Ahylon Macedo'], 40),
  place('Oceania', 'Mount Isa', 'Queensland', 'QLD', 'Australia', 'AU', '4825', -20.725, 139.497, ['Marian Street', 'Camooweal Street', 'Barkly Highway'], 46),
  place('Oceania', 'Port Hedland', 'Western Australia', 'WA', 'Australia', 'AU', '6721', -20.31, 118.606, ['Wedge Street', 'Anderson Street', 'Great Northern Highway'], 50),
];

/** Every town of a country, for an account pinned to it; empty when the catalog knows none there. */
export const placesIn = (regionCode: string): Place[] => [...PLACES, ...NATIONAL_PLACES].filter((p) => p.regionCode === regionCode);

/** Share of installations per continent: a North American reseller with a global fleet. */
export const CONTINENT_WEIGHTS: Readonly<Record<Continent, number>> = {
  'North America': 30,
  Oceania: 20,
  Europe: 18,
  'South America': 12,
  Africa: 12,
  Asia: 8,
};

/** What is at the site; service line and terminal nicknames are built from it. */
export const SITE_KINDS: readonly { name: string; code: string }[] = [
  { name: 'Mine Camp', code: 'MINE' },
  { name: 'Ranch', code: 'RANCH' },
  { name: 'Clinic', code: 'CLINIC' },
  { name: 'School', code: 'SCHOOL' },
  { name: 'Field Office', code: 'FO' },
  { name: 'Ranger Station', code: 'RNGR' },
  { name: 'Survey Camp', code: 'SURVEY' },
  { name: 'Farm', code: 'FARM' },
  { name: 'Lodge', code: 'LODGE' },
  { name: 'Pump Station', code: 'PUMP' },
  { name: 'Depot', code: 'DEPOT' },
  { name: 'Marina', code: 'MARINA' },
  { name: 'Substation', code: 'SUBST' },
  { name: 'Community Hall', code: 'HALL' },
  { name: 'Drill Rig', code: 'RIG' },
  { name: 'Construction Site', code: 'CONST' },
];

export const ACCOUNT_NAME_PARTS = {
  first: ['Meridian', 'Polar', 'Outback', 'Frontier', 'Highline', 'Bluewater', 'Summit', 'Northstar', 'Red Earth', 'Tidewater'],
  second: ['Connect', 'Satellite Services', 'Broadband', 'Networks', 'Telecom', 'Link'],
  suffix: ['LLC', 'Inc.', 'Ltd', 'Pty Ltd', 'Group'],
};
