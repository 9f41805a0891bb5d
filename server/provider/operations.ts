// The provider operations the portal uses, declared once: method, path, query parameters, request
// body, the answer's schema, whether a retry is safe, and whether the provider's published document
// describes it. The client calls through this table, the simulator validates request bodies with
// it, and `npm run provider:contract` turns it into the project's own machine-readable contract
// (server/provider/contract.openapi.json) that the default tests hold the client and the
// simulator to.
//
// A new operation is one entry here: the client gets a typed call, the contract a path, and the
// contract tests fail until the simulator serves it in that shape.
import { z } from 'zod';
import {
  accountSchema,
  addressSchema,
  dataUsageSchema,
  envelope,
  accountBalanceSchema,
  contactSchema,
  dataPoolSchema,
  dataPoolUsageSchema,
  invoiceDetailSchema,
  invoiceSummarySchema,
  managedAccountTreeSchema,
  managedAccountsPageSchema,
  managedCustomerSchema,
  optInSchema,
  paginated,
  partialPeriodSchema,
  productSchema,
  serviceLineSchema,
  serviceResponseSchema,
  telemetryContentSchema,
  userTerminalSchema,
  // Routers and terminal configuration.
  addedLocalContentSchema,
  availableL2VpnCircuitSchema,
  configRefSchema,
  localContentSchema,
  routerConfigSchema,
  routerSchema,
  sandboxClientSchema,
  tlsConfigSchema,
} from './schemas';

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * How the client reads a success: `content` the envelope's content, `page` paginated content read
 * page by page until `isLastPage`, `done` a bare envelope (a write's answer, possibly empty).
 */
export type OperationReads = 'content' | 'page' | 'done';

/**
 * When a failed attempt may be sent again. `always`: after a 5xx, a timeout-free dropped
 * connection or a 429 (reads, and writes that set a state rather than add one). `unsent`: only
 * when the request cannot have reached the provider (a refused connection) or after a 429 —
 * sending it twice could do it twice. `lookup`: a create; after an answer that leaves its fate
 * unknown (a timeout, a 5xx, a connection dropped after sending) the client looks for what the
 * lost attempt may have made before sending it again, so nothing is ever created twice.
 */
export type OperationRetry = 'always' | 'unsent' | 'lookup';

interface OperationBase<Path extends string> {
  /** The operationId in the contract. */
  id: string;
  method: OperationMethod;
  /** Template relative to the API base, `{name}` for path parameters. */
  path: Path;
  summary: string;
  /** Query parameters: each value's wire schema; an array is sent as a repeated key (`?a=1&a=2`). */
  query?: Record<string, z.ZodType>;
  /** The request body the client sends and the simulator accepts (absent: none). */
  body?: z.ZodType;
  retry: OperationRetry;
  /** True for a create the provider answers 201 (else 200). */
  created?: boolean;
  /** False for an operation the provider's published document leaves out (telemetry, from the provider's notes). */
  published: boolean;
}

export interface ContentOperation<Path extends string = string, C extends z.ZodType = z.ZodType> extends OperationBase<Path> {
  reads: 'content';
  content: C;
  /** The whole 200 body: the envelope around `content`. */
  answer: z.ZodType;
}

export interface PageOperation<Path extends string = string, I extends z.ZodType = z.ZodType> extends OperationBase<Path> {
  reads: 'page';
  item: I;
  /** Page size the provider uses, or the largest `limit` it takes. */
  pageSize: number;
  /** The whole 200 body: the envelope around one page of `item`. */
  answer: z.ZodType;
}

export interface DoneOperation<Path extends string = string> extends OperationBase<Path> {
  reads: 'done';
  /** The whole 200 body: the bare envelope (information and warnings, no content). */
  answer: z.ZodType;
}

export type ProviderOperation = ContentOperation | PageOperation | DoneOperation;

// Each entry keeps its own literal types (path, body and answer schemas), so the client's calls
// and the simulator's body checks are typed by the table.
const contentOperation = <const D extends OperationBase<string> & { content: z.ZodType }>(def: D) =>
  ({ ...def, reads: 'content', answer: envelope(def.content) }) as D & { reads: 'content'; answer: z.ZodType };

const pageOperation = <const D extends OperationBase<string> & { item: z.ZodType; pageSize: number }>(def: D) =>
  ({ ...def, reads: 'page', answer: envelope(paginated(def.item)) }) as D & { reads: 'page'; answer: z.ZodType };

const doneOperation = <const D extends OperationBase<string>>(def: D) =>
  ({ ...def, reads: 'done', answer: serviceResponseSchema }) as D & { reads: 'done'; answer: z.ZodType };

/** The provider's fixed page size for products, addresses, service lines and user terminals. */
export const PAGE_SIZE = 100;
/** Data usage pages: `limit` defaults to 50 and may go up to 250. */
export const USAGE_DEFAULT_LIMIT = 50;
export const USAGE_MAX_LIMIT = 250;

// ---- Request parts -------------------------------------------------------------------------

const page = z.number().int().min(0);
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const isoDateTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time');

export const dataUsageQueryBody = z
  .object({
    serviceLineNumbers: z.array(z.string()).nullish(),
    /** Cycles before the current one (provider default 1). */
    previousBillingCycles: z.number().int().min(0).max(24).nullish(),
    /** Provider default true. */
    activeServiceLinesOnly: z.boolean().nullish(),
    /** Overrides the first cycle's start. */
    queryStartDate: isoDateTime.nullish(),
  })
  .nullish();

export const deviceIdBody = z.object({ deviceId: z.string().trim().min(1) });

export const productChangeBody = z.object({
  productReferenceId: z.string().trim().min(1),
  recurringDataBlocks: z.array(z.object({ productId: z.string().trim().min(1), count: z.number().int() })).nullish(),
  dataPoolId: z.string().nullish(),
  delayUpdate: z.boolean().nullish(),
});

/** AddressCreateRequest and AddressUpdateRequestV2 (the same fields). */
export const addressBody = z.object({
  addressLines: z.array(z.string().trim().min(1).max(200)).min(1).max(5),
  locality: z.string().max(200).nullish(),
  administrativeArea: z.string().max(200).nullish(),
  region: z.string().max(200).nullish(),
  postalCode: z.string().max(40).nullish(),
  /** Free text for the caller; the portal keeps a key here to find an address a lost answer created. */
  metadata: z.string().max(500).nullish(),
  formattedAddress: z.string().trim().min(1).max(500),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

const dataBlockRequest = z.object({ productId: z.string().trim().min(1), count: z.number().int() });

export const serviceLineCreateBody = z.object({
  addressReferenceId: uuid,
  productReferenceId: z.string().trim().min(1),
  dataBlockProducts: z.object({ recurringDataBlocks: z.array(dataBlockRequest).nullish(), dataPoolId: z.string().nullish() }).nullish(),
});

export const nicknameBody = z.object({ nickname: z.string().trim().min(1).max(100) });
export const publicIpBody = z.object({ publicIp: z.boolean() });
export const recurringDataBlocksBody = z.object({
  recurringDataBlocks: z.array(dataBlockRequest).nullish(),
  dataPoolId: z.string().nullish(),
  applyToCurrentMonth: z.boolean().nullish(),
});
export const topUpBody = dataBlockRequest;

// Routers and terminal configuration.
const vlan = z.number().int().min(0).max(4094);

/** RouterConfigRequest: create and update alike. */
export const routerConfigBody = z.object({
  nickname: z.string().trim().max(99).nullish(),
  routerConfigJson: z.string().min(1),
});
/** AssignRoutersConfigRequest: a config id, or null/empty for none. */
export const assignRouterConfigBody = z.object({
  configId: z.string().nullish(),
  routerIds: z.array(z.string().trim().min(1)).min(1).max(1000),
});
/** UpdateDefaultConfigRequest: an empty configId clears the default. */
export const defaultRouterConfigBody = z.object({ configId: z.string() });
export const tlsConfigCreateBody = z.object({ certificateBase64Pem: z.string().trim().min(1), keyBase64Pem: z.string().trim().min(1) });
export const tlsConfigDeleteBody = z.object({ certificateBase64Pem: z.string().trim().min(1) });
/** The published document's JSON form of the upload: the HTML file's text in `File` (multipart is its other form). */
export const localContentBody = z.object({ File: z.string().min(1) });
export const sandboxClientsBody = z
  .array(z.object({ clientId: z.string().trim().min(1), sandboxId: z.number().int(), expiry: isoDateTime }))
  .min(1)
  .max(1000);
export const sandboxHeartbeatBody = z.object({ healthy: z.boolean() });
/** AssignUserTerminalsConfigRequest: a config id, or null/empty for none. */
export const assignTerminalConfigBody = z.object({
  configId: z.string().nullish(),
  userTerminalIds: z.array(z.string().trim().min(1)).min(1).max(1000),
});
/** L2VpnSetCircuitRequest list; null or empty clears the terminal's circuits. */
export const l2VpnCircuitsBody = z
  .array(
    z.object({
      /** Deprecated by the provider, instead of `circuitIds`. */
      circuitId: z.string().nullish(),
      circuitIds: z.array(z.string().trim().min(1)),
      customerVlans: z.array(vlan.min(1)).min(1),
      /** Null or 0: no outer tag. */
      serviceVlan: vlan.nullish(),
      /** Null or 0: no remapping. */
      customerVlanRemap: vlan.nullish(),
    }),
  )
  .max(16)
  .nullish();

export const contactCreateBody = z.object({
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  roles: z.array(z.string().trim().min(1).max(50)).min(1).max(10),
  email: z.email().max(254),
  phoneNumber: z.string().trim().min(1).max(40),
  locale: z.string().trim().min(2).max(10),
});
export const contactUpdateBody = z.object({
  roles: z.array(z.string().trim().min(1).max(50)).min(1).max(10).nullish(),
  phoneNumber: z.string().trim().min(1).max(40).nullish(),
});
export const managedCustomerBody = z.object({
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  email: z.email().max(254),
  phone: z.string().trim().min(1).max(40),
  /** ISO 639-1. */
  locale: z.string().trim().min(2).max(10),
  businessName: z.string().trim().max(200).nullish(),
});

export const telemetryQueryBody = z.object({ userTerminalIds: z.array(z.string()).nullish() }).nullish();

// ---- The table -----------------------------------------------------------------------------

export const providerOperations = {
  getAccount: contentOperation({
    id: 'getAccount',
    method: 'GET',
    path: '/public/v2/account',
    summary: 'The account the service account belongs to',
    content: accountSchema,
    retry: 'always',
    published: true,
  }),
  listProducts: pageOperation({
    id: 'listProducts',
    method: 'GET',
    path: '/public/v2/products',
    summary: 'Subscription products (plans) the account may use, with their data products',
    query: { page },
    item: productSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  listAddresses: pageOperation({
    id: 'listAddresses',
    method: 'GET',
    path: '/public/v2/addresses',
    summary: "The account's addresses, or the ones asked for",
    query: { addressIds: z.array(uuid), metadata: z.string(), page },
    item: addressSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  getAddress: contentOperation({
    id: 'getAddress',
    method: 'GET',
    path: '/public/v2/addresses/{addressReferenceId}',
    summary: 'One address',
    content: addressSchema,
    retry: 'always',
    published: true,
  }),
  listServiceLines: pageOperation({
    id: 'listServiceLines',
    method: 'GET',
    path: '/public/v2/service-lines',
    summary: "The account's service lines, active and inactive",
    query: { addressReferenceId: uuid, searchString: z.string(), page, orderByCreatedDateDescending: z.boolean() },
    item: serviceLineSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  getServiceLine: contentOperation({
    id: 'getServiceLine',
    method: 'GET',
    path: '/public/v2/service-lines/{serviceLineNumber}',
    summary: 'One service line, with its data blocks',
    content: serviceLineSchema,
    retry: 'always',
    published: true,
  }),
  changeServiceLineProduct: doneOperation({
    id: 'changeServiceLineProduct',
    method: 'PUT',
    path: '/public/v2/service-lines/{serviceLineNumber}/product',
    summary: "Changes a line's plan: a bigger one at once, a smaller one from the next cycle",
    body: productChangeBody,
    // Sets the plan rather than adding anything: sending it twice leaves the same line.
    retry: 'always',
    published: true,
  }),
  attachTerminal: doneOperation({
    id: 'attachTerminal',
    method: 'POST',
    path: '/public/v2/service-lines/{serviceLineNumber}/user-terminals',
    summary: 'Puts a user terminal (by id or kit serial) on a service line',
    body: deviceIdBody,
    // A second attach of the same terminal answers 422 "already on service line".
    retry: 'unsent',
    published: true,
  }),
  detachTerminal: doneOperation({
    id: 'detachTerminal',
    method: 'DELETE',
    path: '/public/v2/service-lines/{serviceLineNumber}/user-terminals/{deviceId}',
    summary: 'Takes a user terminal off a service line',
    retry: 'always',
    published: true,
  }),
  createAddress: contentOperation({
    id: 'createAddress',
    method: 'POST',
    path: '/public/v2/addresses',
    summary: 'Creates an address (the provider validates it and fills in its region codes)',
    body: addressBody,
    content: addressSchema,
    created: true,
    // Found again by its metadata key after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  updateAddress: contentOperation({
    id: 'updateAddress',
    method: 'PUT',
    path: '/public/v2/addresses/{addressReferenceId}',
    summary: 'Replaces an address',
    body: addressBody,
    content: addressSchema,
    // Sets the whole address: sending it twice leaves the same address.
    retry: 'always',
    published: true,
  }),
  createServiceLine: contentOperation({
    id: 'createServiceLine',
    method: 'POST',
    path: '/public/v2/service-lines',
    summary: 'Creates an active service line at an address, on a product, optionally with recurring data blocks',
    body: serviceLineCreateBody,
    content: serviceLineSchema,
    created: true,
    // Found again among the address's lines after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  deactivateServiceLine: doneOperation({
    id: 'deactivateServiceLine',
    method: 'DELETE',
    path: '/public/v2/service-lines/{serviceLineNumber}',
    summary: 'Ends a service line now, or at the end of its billing cycle',
    query: { reasonForCancellation: z.string(), endNow: z.boolean() },
    // Ending an ending line is refused (422), never done twice.
    retry: 'always',
    published: true,
  }),
  setServiceLineNickname: doneOperation({
    id: 'setServiceLineNickname',
    method: 'PUT',
    path: '/public/v2/service-lines/{serviceLineNumber}/nickname',
    summary: "Renames a service line",
    body: nicknameBody,
    retry: 'always',
    published: true,
  }),
  setServiceLinePublicIp: doneOperation({
    id: 'setServiceLinePublicIp',
    method: 'PUT',
    path: '/public/v2/service-lines/{serviceLineNumber}/public-ip',
    summary: 'Turns the public IP of a service line on or off',
    body: publicIpBody,
    retry: 'always',
    published: true,
  }),
  optInPriorityData: contentOperation({
    id: 'optInPriorityData',
    method: 'POST',
    path: '/public/v2/service-lines/{serviceLineNumber}/data/opt-in',
    summary: 'Opts a service line in to priority data past its limit (billed as overage)',
    content: optInSchema,
    // Sets a state: an opted-in line stays opted in.
    retry: 'always',
    published: true,
  }),
  optOutPriorityData: contentOperation({
    id: 'optOutPriorityData',
    method: 'POST',
    path: '/public/v2/service-lines/{serviceLineNumber}/data/opt-out',
    summary: 'Opts a service line out of priority data past its limit',
    content: optInSchema,
    retry: 'always',
    published: true,
  }),
  setRecurringDataBlocks: doneOperation({
    id: 'setRecurringDataBlocks',
    method: 'PUT',
    path: '/public/v2/service-lines/{serviceLineNumber}/data/recurring',
    summary: "Sets a Priority line's recurring data blocks, from the next cycle or also for this one",
    body: recurringDataBlocksBody,
    retry: 'always',
    published: true,
  }),
  topUpServiceLine: doneOperation({
    id: 'topUpServiceLine',
    method: 'POST',
    path: '/public/v2/service-lines/{serviceLineNumber}/data/top-up',
    summary: 'Buys one-time top-up data blocks for the current billing cycle',
    body: topUpBody,
    // Each request buys blocks: after a lost answer the client counts the line's top-ups first.
    retry: 'lookup',
    published: true,
  }),
  listPartialPeriods: contentOperation({
    id: 'listPartialPeriods',
    method: 'GET',
    path: '/public/v2/service-lines/{serviceLineNumber}/billing-cycles/partial-periods',
    summary: "The current cycle's partial periods of a line: the parts it spent on each product when it started, ended or changed plan mid-cycle",
    content: z.array(partialPeriodSchema).nullish().transform((v) => v ?? []),
    retry: 'always',
    published: true,
  }),
  // ---- Billing, contacts, managed accounts, data pools ----
  listInvoices: pageOperation({
    id: 'listInvoices',
    method: 'GET',
    path: '/public/v2/billing/invoices',
    summary: "The account's invoices, newest first",
    query: { page },
    item: invoiceSummarySchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  getInvoice: contentOperation({
    id: 'getInvoice',
    method: 'GET',
    path: '/public/v2/billing/invoices/{invoiceId}',
    summary: 'One invoice with its lines (product, service lines, quantity, price, service period)',
    content: invoiceDetailSchema,
    retry: 'always',
    published: true,
  }),
  getBalance: contentOperation({
    id: 'getBalance',
    method: 'GET',
    path: '/public/v2/billing/balance',
    summary: 'What the account owes, per currency',
    content: accountBalanceSchema,
    retry: 'always',
    published: true,
  }),
  listContacts: pageOperation({
    id: 'listContacts',
    method: 'GET',
    path: '/public/v2/contacts',
    summary: "The account's contacts",
    query: { page },
    item: contactSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  createContact: contentOperation({
    id: 'createContact',
    method: 'POST',
    path: '/public/v2/contacts',
    summary: 'Adds a contact to the account',
    body: contactCreateBody,
    content: contactSchema,
    // Found again by email after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  updateContact: contentOperation({
    id: 'updateContact',
    method: 'PUT',
    path: '/public/v2/contacts/{subjectId}',
    summary: "Sets a contact's roles or phone number",
    body: contactUpdateBody,
    content: contactSchema,
    retry: 'always',
    published: true,
  }),
  deleteContact: doneOperation({
    id: 'deleteContact',
    method: 'DELETE',
    path: '/public/v2/contacts/{subjectId}',
    summary: 'Removes a contact from the account',
    retry: 'always',
    published: true,
  }),
  createManagedCustomer: contentOperation({
    id: 'createManagedCustomer',
    method: 'POST',
    path: '/public/v2/managed/customers',
    summary: 'Creates a managed customer account under this one, with its service account',
    body: managedCustomerBody,
    content: managedCustomerSchema,
    // Found again among the managed accounts after a lost answer (the secret is then not shown again).
    retry: 'lookup',
    published: true,
  }),
  getManagedAccountTree: contentOperation({
    id: 'getManagedAccountTree',
    method: 'GET',
    path: '/public/v2/managed/accounts/tree',
    summary: 'The managed accounts under this one (or under an ancestor), as a tree',
    query: { ancestorAccountNumber: z.string() },
    content: managedAccountTreeSchema,
    retry: 'always',
    published: true,
  }),
  listManagedAccounts: contentOperation({
    id: 'listManagedAccounts',
    method: 'GET',
    path: '/public/v2/managed/accounts',
    summary: 'Managed accounts, filtered, 100 a page by cursor',
    query: {
      ancestorAccountNumber: z.string(),
      searchString: z.string(),
      accountNumbers: z.array(z.string()),
      maxDepth: z.number().int().min(0),
      cursor: z.string(),
    },
    content: managedAccountsPageSchema,
    retry: 'always',
    published: true,
  }),
  listDataPools: pageOperation({
    id: 'listDataPools',
    method: 'GET',
    path: '/public/v2/data-pools',
    summary: "The account's shared data pools",
    query: { productReferenceId: z.string(), dataPoolIds: z.array(z.string()), page },
    item: dataPoolSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  queryDataPoolUsage: pageOperation({
    id: 'queryDataPoolUsage',
    method: 'GET',
    path: '/public/v2/data-pools/usage',
    summary: "Data pools' usage by block, service line and month",
    query: { dataPoolIds: z.array(z.string()), asOfTimestamp: isoDateTime, page, limit: z.number().int().min(1).max(100) },
    item: dataPoolUsageSchema,
    pageSize: 50,
    retry: 'always',
    published: true,
  }),
  setDataPoolAutomaticTopUp: doneOperation({
    id: 'setDataPoolAutomaticTopUp',
    method: 'POST',
    path: '/public/v2/data-pools/{dataPoolId}/set-automatic-top-up',
    summary: 'Turns automatic top-up of a data pool on or off',
    query: { enabled: z.boolean() },
    retry: 'always',
    published: true,
  }),
  setConsumeFromPool: doneOperation({
    id: 'setConsumeFromPool',
    method: 'PATCH',
    path: '/public/v2/service-lines/{serviceLineNumber}/consume-from-pool',
    summary: "Sets whether a line draws on the account's data pool",
    query: { consumeFromPool: z.boolean() },
    retry: 'always',
    published: true,
  }),
  addUserTerminal: doneOperation({
    id: 'addUserTerminal',
    method: 'POST',
    path: '/public/v2/user-terminals',
    summary: 'Adds a user terminal to the account by its id, kit serial or dish serial (it starts no service)',
    body: deviceIdBody,
    // Found again by its serial after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  removeUserTerminal: doneOperation({
    id: 'removeUserTerminal',
    method: 'DELETE',
    path: '/public/v2/user-terminals/{deviceId}',
    summary: 'Removes a user terminal that is on no service line from the account',
    retry: 'always',
    published: true,
  }),
  listUserTerminals: pageOperation({
    id: 'listUserTerminals',
    method: 'GET',
    path: '/public/v2/user-terminals',
    summary: "The account's user terminals, with their routers",
    query: { serviceLineNumbers: z.array(z.string()), userTerminalIds: z.array(z.string()), hasServiceLine: z.boolean(), searchString: z.string(), page },
    item: userTerminalSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  rebootTerminal: doneOperation({
    id: 'rebootTerminal',
    method: 'POST',
    path: '/public/v2/user-terminals/{deviceId}/reboot',
    summary: 'Reboots an online user terminal',
    // Two reboots are two outages for the customer.
    retry: 'unsent',
    published: true,
  }),
  queryDataUsage: pageOperation({
    id: 'queryDataUsage',
    method: 'POST',
    path: '/public/v2/data-usage/query',
    summary: 'Daily data usage per service line for the current and previous billing cycles',
    query: { page, limit: z.number().int().min(1).max(USAGE_MAX_LIMIT) },
    body: dataUsageQueryBody,
    item: dataUsageSchema,
    pageSize: USAGE_MAX_LIMIT,
    // A query, though a POST: reading it twice changes nothing.
    retry: 'always',
    published: true,
  }),
  // ---- Routers and terminal configuration ----
  getRouter: contentOperation({
    id: 'getRouter',
    method: 'GET',
    path: '/public/v2/routers/{routerId}',
    summary: 'One router bonded to a user terminal of the account, with its config',
    content: routerSchema,
    retry: 'always',
    published: true,
  }),
  rebootRouter: doneOperation({
    id: 'rebootRouter',
    method: 'POST',
    path: '/public/v2/routers/{routerId}/reboot',
    summary: 'Reboots a router (its user terminal must be online on an active line)',
    // Two reboots are two outages for the customer.
    retry: 'unsent',
    published: true,
  }),
  listRouterConfigs: pageOperation({
    id: 'listRouterConfigs',
    method: 'GET',
    path: '/public/v2/routers/configs',
    summary: "The account's router configs",
    query: { page },
    item: routerConfigSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  createRouterConfig: contentOperation({
    id: 'createRouterConfig',
    method: 'POST',
    path: '/public/v2/routers/configs',
    summary: 'Creates a router config',
    body: routerConfigBody,
    content: routerConfigSchema,
    created: true,
    // Found again among the configs (a new one with its nickname and JSON) after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  getRouterConfig: contentOperation({
    id: 'getRouterConfig',
    method: 'GET',
    path: '/public/v2/routers/configs/{configId}',
    summary: 'One router config',
    content: routerConfigSchema,
    retry: 'always',
    published: true,
  }),
  updateRouterConfig: contentOperation({
    id: 'updateRouterConfig',
    method: 'PUT',
    path: '/public/v2/routers/configs/{configId}',
    summary: 'Replaces a router config; the routers assigned to it get it when online',
    body: routerConfigBody,
    content: routerConfigSchema,
    retry: 'always',
    published: true,
  }),
  assignRouterConfig: doneOperation({
    id: 'assignRouterConfig',
    method: 'PUT',
    path: '/public/v2/routers/configs/assign',
    summary: 'Assigns a router config (or none) to routers, all or none of them',
    body: assignRouterConfigBody,
    retry: 'always',
    published: true,
  }),
  getDefaultRouterConfig: contentOperation({
    id: 'getDefaultRouterConfig',
    method: 'GET',
    path: '/public/v2/routers/configs/default',
    summary: 'The router config routers get when they are first added to the account',
    content: configRefSchema,
    retry: 'always',
    published: true,
  }),
  setDefaultRouterConfig: doneOperation({
    id: 'setDefaultRouterConfig',
    method: 'PUT',
    path: '/public/v2/routers/configs/default',
    summary: "Sets (or, with an empty id, clears) the account's default router config",
    body: defaultRouterConfigBody,
    retry: 'always',
    published: true,
  }),
  listTlsConfigs: pageOperation({
    id: 'listTlsConfigs',
    method: 'GET',
    path: '/public/v2/routers/configs/tls',
    summary: 'The TLS certificates router configs may name (their keys are not shown)',
    query: { page },
    item: tlsConfigSchema,
    pageSize: PAGE_SIZE,
    retry: 'always',
    published: true,
  }),
  createTlsConfig: contentOperation({
    id: 'createTlsConfig',
    method: 'POST',
    path: '/public/v2/routers/configs/tls',
    summary: 'Adds a TLS certificate and its key (base64 PEM); certificates are unique on the account',
    body: tlsConfigCreateBody,
    content: configRefSchema,
    created: true,
    // Found again by its certificate after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  deleteTlsConfig: doneOperation({
    id: 'deleteTlsConfig',
    method: 'DELETE',
    path: '/public/v2/routers/configs/tls',
    summary: 'Removes a TLS certificate and its key (router configs saved with it keep it)',
    body: tlsConfigDeleteBody,
    // Deleting a deleted certificate is refused (422), never done twice.
    retry: 'always',
    published: true,
  }),
  listLocalContent: contentOperation({
    id: 'listLocalContent',
    method: 'GET',
    path: '/public/v2/routers/local-content',
    summary: 'The HTML files uploaded for routers to host',
    content: z.array(localContentSchema).nullish().transform((v) => v ?? []),
    retry: 'always',
    published: true,
  }),
  uploadLocalContent: contentOperation({
    id: 'uploadLocalContent',
    method: 'POST',
    path: '/public/v2/routers/local-content',
    summary: "Uploads an HTML file (under 4 MB) for routers' HTTPS server; answers its id and MD5 hash",
    body: localContentBody,
    content: addedLocalContentSchema,
    created: true,
    // Found again by its MD5 hash after a lost answer.
    retry: 'lookup',
    published: true,
  }),
  listSandboxClients: pageOperation({
    id: 'listSandboxClients',
    method: 'GET',
    path: '/public/v2/routers/sandbox/clients',
    summary: 'Clients let out of their router sandbox whose access has not expired',
    query: { sandboxId: z.number().int(), expiryAfter: isoDateTime, page },
    item: sandboxClientSchema,
    pageSize: 1000,
    retry: 'always',
    published: true,
  }),
  updateSandboxClients: doneOperation({
    id: 'updateSandboxClients',
    method: 'POST',
    path: '/public/v2/routers/sandbox/clients',
    summary: "Sets clients' sandbox access until an expiry (a past expiry sandboxes them again)",
    body: sandboxClientsBody,
    // Sets each client's expiry: sending it twice leaves the same state.
    retry: 'always',
    published: true,
  }),
  sendSandboxHeartbeat: doneOperation({
    id: 'sendSandboxHeartbeat',
    method: 'PUT',
    path: '/public/v2/routers/sandbox/heartbeat',
    summary: 'Tells the provider the systems that manage router sandboxes are (un)healthy',
    body: sandboxHeartbeatBody,
    retry: 'always',
    published: true,
  }),
  assignUserTerminalConfig: doneOperation({
    id: 'assignUserTerminalConfig',
    method: 'PUT',
    path: '/public/v2/user-terminals/configs/assign',
    summary: 'Assigns a user terminal config (or none) to user terminals, all or none of them',
    body: assignTerminalConfigBody,
    retry: 'always',
    published: true,
  }),
  listL2VpnCircuits: contentOperation({
    id: 'listL2VpnCircuits',
    method: 'GET',
    path: '/public/v2/user-terminals/l2vpn',
    summary: 'The L2VPN circuit groups available to the account, with their PoPs',
    content: z.array(availableL2VpnCircuitSchema).nullish().transform((v) => v ?? []),
    retry: 'always',
    published: true,
  }),
  setL2VpnCircuits: doneOperation({
    id: 'setL2VpnCircuits',
    method: 'PUT',
    path: '/public/v2/user-terminals/{deviceId}/l2vpn',
    summary: "Sets a user terminal's L2VPN circuits and VLANs (empty: none); its line's plan must allow L2VPN",
    body: l2VpnCircuitsBody,
    retry: 'always',
    published: true,
  }),
  queryTelemetry: contentOperation({
    id: 'queryTelemetry',
    method: 'POST',
    path: '/public/v2/telemetry/query',
    summary: "The latest telemetry record of each user terminal asked for (all when none is named)",
    body: telemetryQueryBody,
    content: telemetryContentSchema,
    retry: 'always',
    published: false,
  }),
} as const satisfies Record<string, ProviderOperation>;

export type ProviderOperations = typeof providerOperations;

// ---- Paths ---------------------------------------------------------------------------------

/** `{ serviceLineNumber: string }` for '/public/v2/service-lines/{serviceLineNumber}'. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : unknown;

/** The names of a template's path parameters, in order. */
export const pathParameterNames = (template: string): string[] => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/**
 * A concrete path: each parameter encoded as one segment. An empty value is a caller's bug, not
 * a request to send (it would address another resource), so it throws.
 */
export function pathOf<Path extends string>(template: Path, params: PathParams<Path>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (params as Record<string, unknown>)[name];
    if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${name} is required`);
    return encodeURIComponent(value);
  });
}
