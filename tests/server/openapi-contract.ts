// Contract checks against the provider's own OpenAPI document
// (../shared/provider/starlink-public-api-v2.openapi.json, read at test time, never copied).
// Used by the simulator's tests and the provider client's tests alike.
//
//   expectResponseMatches('GET', '/public/v2/service-lines/{serviceLineNumber}', 200, body)
//   expectRequestMatches('POST', '/public/v2/data-usage/query', { previousBillingCycles: 1 })
//
// Paths may be the document's templates or concrete paths, with or without a base (`/api`,
// `/simulator/api`, a full URL) and a query string. Both functions throw a ContractError that
// lists what does not match, with the offending values.
//
// Status policy: a documented status with a JSON body is checked against its schema. Error
// statuses the document lists without a body (400, 401, 403) or leaves out (404, 429, 5xx) are
// checked against the generic envelope `ServiceResponse` (for 403 also
// `UserLacksRequiredPermissionServiceResponse`), which is how the provider answers them. An
// undocumented 2xx status is itself a contract failure.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OPENAPI_PATH = path.resolve(repoRoot, '../shared/provider/starlink-public-api-v2.openapi.json');

interface MediaType {
  schema?: { $ref?: string } & Record<string, unknown>;
}
interface Operation {
  requestBody?: { content?: Record<string, MediaType>; required?: boolean };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export class ContractError extends Error {
  override name = 'ContractError';
}

const DOCUMENT_ID = 'starlink-public-api-v2';

let loaded: { document: OpenApiDocument; ajv: Ajv; templates: { template: string; pattern: RegExp }[] } | null = null;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (loaded) return loaded;
  const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
  // OpenAPI 3.0 schemas are draft-04-ish JSON Schema plus `nullable`, which Ajv understands.
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  const int32 = { type: 'number' as const, validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 };
  ajv.addFormat('int32', int32);
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addKeyword('x-enumNames');
  ajv.addKeyword('example');
  ajv.addKeyword('components');
  // Registered whole, so the document's own `#/components/schemas/...` references resolve.
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components } as never);
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    // Literal segments win over parameters: /user-terminals/l2vpn before /user-terminals/{deviceId}.
    .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  loaded = { document, ajv, templates };
  return loaded;
}

/** '/api/public/v2/service-lines/AST-1?page=0' → '/public/v2/service-lines/{serviceLineNumber}'. */
export function resolvePathTemplate(pathOrTemplate: string): string {
  const { document, templates } = load();
  let p = pathOrTemplate.split('?')[0]!;
  const start = p.indexOf('/public/v2/');
  if (start >= 0) p = p.slice(start);
  p = p.replace(/\/+$/, '');
  if (document.paths[p]) return p;
  const match = templates.find((t) => t.pattern.test(p));
  if (!match) throw new ContractError(`${pathOrTemplate} is not a path of the provider's OpenAPI document`);
  return match.template;
}

function operation(method: string, pathOrTemplate: string): { template: string; op: Operation } {
  const template = resolvePathTemplate(pathOrTemplate);
  const op = load().document.paths[template]?.[method.toLowerCase()];
  if (!op) throw new ContractError(`${method.toUpperCase()} ${template} is not an operation of the provider's OpenAPI document`);
  return { template, op };
}

function validator(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (!validate) {
    const { ajv } = load();
    validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) throw new ContractError(`The OpenAPI document has no schema ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

const refOf = (media: MediaType | undefined): string | null => media?.schema?.$ref ?? null;
const schemaName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const part of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

function describe(errors: ErrorObject[] | null | undefined, body: unknown): string {
  const lines = (errors ?? []).slice(0, 12).map((e) => {
    const at = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : '';
    const shown = JSON.stringify(valueAt(body, e.instancePath));
    return `  ${at} ${e.message}${extra} (got ${shown === undefined ? 'undefined' : shown.length > 80 ? `${shown.slice(0, 77)}...` : shown})`;
  });
  if ((errors?.length ?? 0) > 12) lines.push(`  … and ${errors!.length - 12} more`);
  return lines.join('\n');
}

function check(ref: string, body: unknown, what: string): void {
  const validate = validator(ref);
  if (!validate(body)) throw new ContractError(`${what} does not match ${schemaName(ref)}:\n${describe(validate.errors, body)}`);
}

const ENVELOPE = '#/components/schemas/ServiceResponse';
const PERMISSION_ENVELOPE = '#/components/schemas/UserLacksRequiredPermissionServiceResponse';

/** The schema references a response must match (any one of them), or throws for a status the document rules out. */
export function responseSchemaRefs(method: string, pathOrTemplate: string, status: number): string[] {
  const { template, op } = operation(method, pathOrTemplate);
  const documented = op.responses?.[String(status)];
  const ref = refOf(documented?.content?.['application/json']);
  if (ref) return [ref];
  if (status < 400) {
    throw new ContractError(
      `${method.toUpperCase()} ${template} answered ${status}, which the document does not give (it gives ${Object.keys(op.responses ?? {}).join(', ')})`,
    );
  }
  return status === 403 ? [ENVELOPE, PERMISSION_ENVELOPE] : [ENVELOPE];
}

export function expectResponseMatches(method: string, pathOrTemplate: string, status: number, body: unknown): void {
  const refs = responseSchemaRefs(method, pathOrTemplate, status);
  const what = `${method.toUpperCase()} ${resolvePathTemplate(pathOrTemplate)} → ${status}`;
  const failures: string[] = [];
  for (const ref of refs) {
    try {
      check(ref, body, what);
      return;
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  throw new ContractError(failures.join('\n'));
}

/** Checks a body against one named component schema, e.g. 'ServiceResponse'. */
export function expectSchemaMatches(schema: string, body: unknown): void {
  check(`#/components/schemas/${schema}`, body, `Body`);
}

export function expectRequestMatches(method: string, pathOrTemplate: string, body: unknown): void {
  const { template, op } = operation(method, pathOrTemplate);
  const what = `${method.toUpperCase()} ${template} request body`;
  const content = op.requestBody?.content;
  if (!content) {
    if (body === undefined || body === null || body === '') return;
    throw new ContractError(`${what}: the document gives this operation no request body`);
  }
  const ref = refOf(content['application/json']);
  if (!ref) throw new ContractError(`${what}: the document gives no application/json body (it gives ${Object.keys(content).join(', ')})`);
  check(ref, body, what);
}
