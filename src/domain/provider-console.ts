// The provider console ("Starlink API Simulator" page) and its portal endpoints
// (`/api/v1/starlink-simulator/*`, spec sections 2, 3 and 7). The server maps provider (Starlink v2)
// data into these shapes; the page renders them. Field names are the spec's, snake_case included.

export const PROVIDER_API_VERSION = 'v2';

/** Spec section 8 "Simulator" messages. */
export const CONSOLE_MESSAGES = {
  apiFailed: 'API request failed',
  network: 'Network error occurred',
  unexpectedSearch: 'Unexpected error occurred during simulation',
  unexpectedTerminals: 'Unexpected error occurred while loading terminals',
  detailsFailed: 'Failed to fetch service line details',
  usageFailed: 'Failed to fetch service line usage',
  connectionFailed: 'Connection test failed',
  serviceLineRequired: 'Service line number is required',
} as const;

export interface DataAmount {
  amount: number;
  unit: 'GB' | 'TB' | 'MB';
}

export interface ConsoleProduct {
  productReferenceId: string;
  type: string; // e.g. "Metered", "Priority"
  name: string;
  category: string; // e.g. "Data plan"
  billingType: string; // e.g. "Monthly"
  description: string;
  price: number | null;
  currency: string | null;
}

export interface ConsoleLocation {
  addressReferenceId: string | null;
  formattedAddress: string | null;
  region: string | null;
  country: string | null;
  timezone: string | null;
  coordinates: { latitude: number; longitude: number } | null;
}

export interface ConsoleDataBlock {
  productId: string | null;
  amount: number;
  unit: string;
  type: string; // dataBlockType / kind
  active: boolean;
  startDate: string | null;
  expirationDate: string | null;
}

export interface ConsoleOneTimeBlock extends ConsoleDataBlock {
  used: boolean;
  purchaseDate: string | null;
}

export interface ConsoleDataBlocks {
  currentCycle: { totalGB: number; usedGB: number; remainingGB: number; utilizationPercent: number };
  recurring: ConsoleDataBlock[];
  oneTime: ConsoleOneTimeBlock[];
}

export interface ConsoleTerminalHardware {
  model: string | null;
  hardwareVersion: string | null;
  softwareVersion: string | null;
  firmwareVersion: string | null;
  installationDate: string | null;
  lastSeen: string | null;
}

export interface ConsoleServiceEvent {
  type: string;
  description: string;
  status: string;
  date: string;
}

export interface ConsoleAccount {
  accountNumber: string;
  accountType: string;
  customerType: string;
  organization: string;
}

export interface ServiceLineDetails {
  serviceLineNumber: string;
  active: boolean;
  status: 'Active' | 'Inactive';
  nickname: string | null;
  productType: string | null;
  dataAllowance: string | null; // e.g. "50 GB", "1 TB", "Unlimited"
  userTerminalId: string | null;
  kitSerialNumber: string | null;
  dishSerialNumber: string | null;
  addressReference: string | null;
  dataCap: DataAmount | null;
  billingCycle: { start: string | null; end: string | null };
  product: ConsoleProduct | null;
  location: ConsoleLocation | null;
  dataBlocks: ConsoleDataBlocks | null;
  terminal: ConsoleTerminalHardware | null;
  serviceHistory: ConsoleServiceEvent[];
  account: ConsoleAccount | null;
}

/** One usage record (older portal shape, snake_case). */
export interface ConsoleUsageRecord {
  id: string;
  usage_date: string; // YYYY-MM-DD
  /** Hour bucket 0–23, shown as "H:00". */
  data_bucket: number;
  total_gb: number;
  synced_at: string;
}

export interface UsageStats {
  totalUsageGB: number;
  totalRecords: number;
  dateRange: { start: string | null; end: string | null };
}

export interface ConsoleMetadata {
  apiVersion: string;
  accountNumber: string | null;
  timestamp: string;
  dataFreshness: { serviceLineDetails: string | null; usageData: string | null };
}

/** `POST /api/v1/starlink-simulator/search` → data. */
export interface ServiceLineSearchResponse {
  success: boolean;
  serviceLineFound: boolean;
  error: string | null;
  timestamp: string;
  /** Milliseconds the provider calls took, measured. */
  apiCallDuration: number;
  serviceLineDetails: ServiceLineDetails | null;
  usageData: ConsoleUsageRecord[];
  usageStats: UsageStats;
  metadata: ConsoleMetadata;
  rawApiResponses: { serviceLineDetails: unknown; usageData: unknown };
}

export interface ConsoleTerminal {
  id: string;
  userTerminalId: string;
  kitSerialNumber: string;
  active: boolean;
  status: 'Active' | 'Inactive';
  serviceLineNumber: string | null;
  addressReference: string | null;
  region: string | null;
  model: string | null;
}

/** `GET /api/v1/starlink-simulator/user-terminals` → data. */
export interface UserTerminalsResponse {
  success: boolean;
  terminals: ConsoleTerminal[];
  stats: {
    totalTerminals: number;
    activeTerminals: number;
    inactiveTerminals: number;
    connectedTerminals: number;
    /** Region → number of terminals. */
    regions: Record<string, number>;
    /** Model → number of terminals. */
    models: Record<string, number>;
  };
  totalCount: number;
  error: string | null;
  timestamp: string;
  metadata: {
    accountNumber: string | null;
    apiVersion: string;
    apiCallDuration: number;
    dataFreshness: string | null;
  };
}

/** `GET /api/v1/starlink-simulator/health` → data. */
export interface ProviderHealthResponse {
  status: 'Healthy' | 'Degraded' | 'Down';
  provider: 'simulator' | 'starlink';
  accountNumber: string | null;
  apiVersion: string;
  latencyMs: number | null;
  checkedAt: string;
  message: string | null;
}

/** Spec: the search button is enabled only for a non-empty trimmed service line number. */
export function normaliseServiceLineInput(input: string): string | null {
  const value = input.trim();
  return value.length > 0 ? value : null;
}

/** "H:00" for an hour bucket, as the usage table shows it. */
export function hourBucketLabel(bucket: number): string {
  return `${bucket}:00`;
}
