// The project's own machine-readable contract of the provider's wire format: an OpenAPI 3.0
// document made from the table of provider operations (server/provider/operations.ts) and the
// zod schemas it names (server/provider/schemas.ts), written to server/provider/contract.openapi.json.
//
//   tsx scripts/provider-contract.ts           regenerate the file
//   tsx scripts/provider-contract.ts --check   write nothing; exit 1 when the file is stale
//
// The default tests hold the client's requests and the simulator's answers to this file
// (tests/server/contract/), so the simulator cannot drift from what the client reads. Two choices
// make it a contract rather than a description:
// - Objects are closed (`additionalProperties: false`) unless the schema is a zod looseObject
//   (the telemetry record, whose `alert…` flags come and go): a field the simulator sends that the
//   client does not know is a failure, so a new field is added to schemas.ts first.
// - Schemas are the request side (`io: 'input'`): what may be on the wire, before the client's
//   defaults and transforms. A field the client reads as optional is optional here too.
// Whether the provider's published document agrees is the separate `npm run test:provider-contract`.
// Output is a pure function of the code: no dates, no paths of this machine.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { pathParameterNames, providerOperations, type ProviderOperation } from '../server/provider/operations';
import * as wire from '../server/provider/schemas';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CONTRACT_PATH = join(ROOT, 'server/provider/contract.openapi.json');
const COMPONENTS = '#/components/schemas/';

type JsonSchema = Record<string, unknown>;

/** Named wire shapes, so the document reads like the provider's: one component per record type. */
const NAMED: [z.ZodType, string][] = [
  [wire.validationResultSchema, 'ValidationResult'],
  [wire.serviceResponseSchema, 'ServiceResponse'],
  [wire.userLacksPermissionSchema, 'UserLacksRequiredPermission'],
  [wire.accountSchema, 'Account'],
  [wire.dataProductSchema, 'DataProduct'],
  [wire.productSchema, 'Product'],
  [wire.addressSchema, 'Address'],
  [wire.dataBlockSummarySchema, 'DataBlockSummary'],
  [wire.dataBlocksSchema, 'DataBlocks'],
  [wire.aviationMetadataSchema, 'AviationMetadata'],
  [wire.serviceLineSchema, 'ServiceLine'],
  [wire.l2VpnCircuitSchema, 'L2VpnCircuit'],
  [wire.routerSchema, 'Router'],
  [wire.userTerminalSchema, 'UserTerminal'],
  [wire.dailyUsageSchema, 'DailyUsage'],
  [wire.overageLineSchema, 'OverageLine'],
  [wire.billingCycleSchema, 'BillingCycle'],
  [wire.servicePlanSchema, 'ServicePlan'],
  [wire.dataUsageSchema, 'DataUsage'],
  [wire.telemetryContentSchema, 'Telemetry'],
  [wire.partialPeriodSchema, 'PartialPeriod'],
  [wire.optInSchema, 'OptIn'],
  [wire.invoiceSummarySchema, 'InvoiceSummary'],
  [wire.invoiceLineSchema, 'InvoiceLine'],
  [wire.invoiceDetailSchema, 'InvoiceDetail'],
  [wire.accountBalanceSchema, 'AccountBalance'],
  [wire.contactSchema, 'Contact'],
  [wire.managedCustomerSchema, 'ManagedCustomer'],
  [wire.managedAccountNodeSchema, 'ManagedAccountNode'],
  [wire.managedAccountSchema, 'ManagedAccount'],
  [wire.dataPoolSchema, 'DataPool'],
  [wire.dataPoolUsageSchema, 'DataPoolUsage'],
];

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);
const responseName = (operation: ProviderOperation) => (operation.reads === 'done' ? 'ServiceResponse' : `${pascal(operation.id)}Response`);
const requestName = (operation: ProviderOperation) => `${pascal(operation.id)}Request`;

/** The OpenAPI 3.0 spelling of "null" (3.0 has no null type). */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] };

/**
 * Closes objects and turns a type-less `nullable` into a null branch (OpenAPI 3.0 and Ajv give
 * `nullable` a meaning only beside a `type`), everywhere in a schema.
 */
function tighten(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tighten);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    out[key] = tighten(value);
  }
  if (out.type === 'object' && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  if (out.nullable === true && !('type' in out)) {
    // A nullable reference (`{ nullable, allOf: [$ref] }`) or union: `nullable` means nothing
    // without a `type`, so null becomes a branch of its own.
    const branches = (Array.isArray(out.anyOf) ? out.anyOf : Array.isArray(out.allOf) && out.allOf.length === 1 ? out.allOf : null) as JsonSchema[] | null;
    if (branches) {
      delete out.nullable;
      delete out.allOf;
      out.anyOf = [...branches, NULL_ONLY];
    }
  }
  return out;
}

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return tighten(z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' })) as JsonSchema;
}

const errorResponse = (description: string, ref = 'ServiceResponse') => ({
  description,
  content: { 'application/json': { schema: { $ref: `${COMPONENTS}${ref}` } } },
});

function operationObject(operation: ProviderOperation): JsonSchema {
  const parameters = [
    ...pathParameterNames(operation.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } })),
    ...Object.entries(operation.query ?? {}).map(([name, schema]) => {
      const json = jsonSchemaOf(schema);
      // Arrays are repeated keys (`?a=1&a=2`), the provider's rule: form style, exploded.
      return { name, in: 'query', required: false, ...(json.type === 'array' ? { style: 'form', explode: true } : {}), schema: json };
    }),
  ];
  return {
    operationId: operation.id,
    summary: operation.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? { requestBody: { required: false, content: { 'application/json': { schema: { $ref: `${COMPONENTS}${requestName(operation)}` } } } } }
      : {}),
    responses: {
      [operation.created ? '201' : '200']: { description: operation.created ? 'Created' : 'Success', content: { 'application/json': { schema: { $ref: `${COMPONENTS}${responseName(operation)}` } } } },
      '400': errorResponse('Bad parameters or body'),
      '401': errorResponse('Missing, invalid or expired access token'),
      '403': {
        description: 'The service account lacks a permission, or a write without a JSON content type',
        content: { 'application/json': { schema: { anyOf: [{ $ref: `${COMPONENTS}ServiceResponse` }, { $ref: `${COMPONENTS}UserLacksRequiredPermissionServiceResponse` }] } } },
      },
      '404': errorResponse('Not found on this account'),
      '422': errorResponse('Refused by the provider’s rules'),
      '429': errorResponse('Rate limit exceeded for this account'),
    },
    'x-reads': operation.reads,
    ...(operation.reads === 'page' ? { 'x-page-size': operation.pageSize } : {}),
    'x-retry': operation.retry,
    'x-published': operation.published,
  };
}

/** The contract document, as a plain object. */
export function buildProviderContract(): JsonSchema {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of NAMED) registry.add(schema, { id });
  registry.add(wire.envelope(wire.userLacksPermissionSchema), { id: 'UserLacksRequiredPermissionServiceResponse' });
  const operations = Object.values(providerOperations) as ProviderOperation[];
  for (const operation of operations) {
    if (operation.reads !== 'done') registry.add(operation.answer, { id: responseName(operation) });
    if (operation.body) registry.add(operation.body, { id: requestName(operation) });
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    target: 'openapi-3.0',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENTS}${id}`,
  }) as { schemas: Record<string, JsonSchema> };

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = operationObject(operation);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Starlink Public API v2: the wire contract of this portal',
      version: '2',
      description:
        'The provider operations the portal calls and the built-in simulator serves, with the shapes the client reads. ' +
        'Generated from server/provider/operations.ts and server/provider/schemas.ts by `npm run provider:contract`; do not edit by hand. ' +
        'Objects are closed: a field outside this contract is a contract failure. ' +
        'x-retry: `always` may be resent after a 5xx or a dropped connection, `unsent` only when it cannot have reached the provider, ' +
        '`lookup` (a create) only after looking for what the lost attempt may have made. ' +
        'x-published: false marks an operation the provider’s published document leaves out (telemetry, from the provider’s notes). ' +
        'Errors are the ServiceResponse envelope with isValid false; 5xx answers may have any body.',
    },
    servers: [{ url: 'https://starlink.com/api' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, tighten(schema)]).sort(([a], [b]) => String(a).localeCompare(String(b)))),
    },
  };
}

export const renderProviderContract = () => `${JSON.stringify(buildProviderContract(), null, 2)}\n`;

/** True when the file on disk is what the code makes today. */
export function providerContractIsCurrent(path = CONTRACT_PATH): boolean {
  try {
    return readFileSync(path, 'utf8') === renderProviderContract();
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const relativePath = 'server/provider/contract.openapi.json';
  if (process.argv.includes('--check')) {
    if (!providerContractIsCurrent()) {
      console.error(`${relativePath} is out of date with server/provider/operations.ts and schemas.ts: run npm run provider:contract`);
      process.exit(1);
    }
    console.log(`${relativePath} is current`);
  } else {
    writeFileSync(CONTRACT_PATH, renderProviderContract());
    console.log(`wrote ${relativePath}`);
  }
}
