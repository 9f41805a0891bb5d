// Contract checks of provider exchanges against an OpenAPI document: by default the project's own
// contract (server/provider/contract.openapi.json, generated from the table of provider
// operations); in `npm run test:provider-contract` the provider's published document, whose path
// scripts/test-provider-contract.ts passes in PROVIDER_CONTRACT_DOCUMENT. Used by the simulator's
// tests and the provider client's tests alike.
//
//   contract.expectResponseMatches('GET', '/public/v2/service-lines/{serviceLineNumber}', 200, body)
//   contract.expectRequestMatches('POST', '/public/v2/data-usage/query', { previousBillingCycles: 1 })
//
// Paths may be the document's templates or concrete paths, with or without a base (`/api`,
// `/simulator/api`, a full URL) and a query string. Both functions throw a ContractError that
// lists what does not match, with the offending values.
//
// Status policy: a documented status with a JSON body is checked against its schema (a `$ref`, or
// `anyOf`/`oneOf` of them: any one may match). Error statuses a document lists without a body or
// leaves out (the published one does so for 400, 401, 403, 404, 429 and 5xx) are checked against
// the generic envelope `ServiceResponse` (for 403 also `UserLacksRequiredPermissionServiceResponse`),
// which is how the provider answers them. An undocumented 2xx status is itself a contract failure.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The project's own contract of the provider wire format. */
export const OWN_CONTRACT_PATH = path.join(repoRoot, 'server/provider/contract.openapi.json');

interface MediaType {
  schema?: { $ref?: string; anyOf?: unknown; oneOf?: unknown } & Record<string, unknown>;
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

interface Parameter {
  name: string;
  in: string;
}

export interface Contract {
  /** What the document is, for test names and failures. */
  label: string;
  file: string;
  /** '/api/public/v2/service-lines/AST-1?page=0' → '/public/v2/service-lines/{serviceLineNumber}'. */
  resolvePathTemplate(pathOrTemplate: string): string;
  /** Whether the document has this operation. */
  has(method: string, pathOrTemplate: string): boolean;
  /** The query parameter names the document gives the operation. */
  queryParameters(method: string, pathOrTemplate: string): string[];
  /** Every `METHOD /template` of the document. */
  operations(): string[];
  /** The schema references a response must match (any one of them), or throws for a status the document rules out. */
  responseSchemaRefs(method: string, pathOrTemplate: string, status: number): string[];
  expectResponseMatches(method: string, pathOrTemplate: string, status: number, body: unknown): void;
  /** Checks a body against one named component schema, e.g. 'ServiceResponse'. */
  expectSchemaMatches(schema: string, body: unknown): void;
  expectRequestMatches(method: string, pathOrTemplate: string, body: unknown): void;
  /** The parsed document. */
  document(): OpenApiDocument & { paths: Record<string, Record<string, Operation & { parameters?: Parameter[] }>> };
}

const ENVELOPE = '#/components/schemas/ServiceResponse';
const PERMISSION_ENVELOPE = '#/components/schemas/UserLacksRequiredPermissionServiceResponse';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** `schema.$ref`, or the `$ref`s of an `anyOf`/`oneOf` (any one may match). */
function refsOf(media: MediaType | undefined): string[] {
  const schema = media?.schema;
  if (!schema) return [];
  if (typeof schema.$ref === 'string') return [schema.$ref];
  const branches = (schema.anyOf ?? schema.oneOf) as { $ref?: string }[] | undefined;
  return (branches ?? []).map((b) => b.$ref).filter((r): r is string => typeof r === 'string');
}
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

/** A contract over the OpenAPI document at `file`, read on first use. */
export function loadContract(file: string, label: string): Contract {
  const documentId = `contract:${file}`;
  let loaded: { document: OpenApiDocument; ajv: Ajv; templates: { template: string; pattern: RegExp }[] } | null = null;
  const validators = new Map<string, ValidateFunction>();

  function load() {
    if (loaded) return loaded;
    if (!existsSync(file)) throw new ContractError(`${label}: no file at ${file}`);
    const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
    if (!document || typeof document.paths !== 'object' || typeof document.components?.schemas !== 'object') {
      throw new ContractError(`${label}: ${file} is not an OpenAPI document with paths and component schemas`);
    }
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
    ajv.addSchema({ $id: documentId, components: document.components } as never);
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

  function findTemplate(pathOrTemplate: string): string | null {
    const { document, templates } = load();
    let p = pathOrTemplate.split('?')[0]!;
    const start = p.indexOf('/public/v2/');
    if (start >= 0) p = p.slice(start);
    p = p.replace(/\/+$/, '');
    if (document.paths[p]) return p;
    return templates.find((t) => t.pattern.test(p))?.template ?? null;
  }

  function resolvePathTemplate(pathOrTemplate: string): string {
    const template = findTemplate(pathOrTemplate);
    if (!template) throw new ContractError(`${pathOrTemplate} is not a path of ${label}`);
    return template;
  }

  function operation(method: string, pathOrTemplate: string): { template: string; op: Operation & { parameters?: Parameter[] } } {
    const template = resolvePathTemplate(pathOrTemplate);
    const op = load().document.paths[template]?.[method.toLowerCase()];
    if (!op) throw new ContractError(`${method.toUpperCase()} ${template} is not an operation of ${label}`);
    return { template, op };
  }

  function validator(ref: string): ValidateFunction {
    let validate = validators.get(ref);
    if (!validate) {
      validate = load().ajv.getSchema(`${documentId}${ref}`);
      if (!validate) throw new ContractError(`${label} has no schema ${ref}`);
      validators.set(ref, validate);
    }
    return validate;
  }

  function check(ref: string, body: unknown, what: string): void {
    const validate = validator(ref);
    if (!validate(body)) throw new ContractError(`${what} does not match ${schemaName(ref)} of ${label}:\n${describe(validate.errors, body)}`);
  }

  function responseSchemaRefs(method: string, pathOrTemplate: string, status: number): string[] {
    const { template, op } = operation(method, pathOrTemplate);
    const refs = refsOf(op.responses?.[String(status)]?.content?.['application/json']);
    if (refs.length > 0) return refs;
    if (status < 400) {
      throw new ContractError(
        `${method.toUpperCase()} ${template} answered ${status}, which ${label} does not give (it gives ${Object.keys(op.responses ?? {}).join(', ')})`,
      );
    }
    return status === 403 ? [ENVELOPE, PERMISSION_ENVELOPE] : [ENVELOPE];
  }

  return {
    label,
    file,
    resolvePathTemplate,
    has(method, pathOrTemplate) {
      const template = findTemplate(pathOrTemplate);
      return template !== null && !!load().document.paths[template]?.[method.toLowerCase()];
    },
    queryParameters(method, pathOrTemplate) {
      return (operation(method, pathOrTemplate).op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    },
    operations() {
      return Object.entries(load().document.paths).flatMap(([template, item]) =>
        Object.keys(item)
          .filter((m) => HTTP_METHODS.has(m))
          .map((m) => `${m.toUpperCase()} ${template}`),
      );
    },
    responseSchemaRefs,
    expectResponseMatches(method, pathOrTemplate, status, body) {
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
    },
    expectSchemaMatches(schema, body) {
      check(`#/components/schemas/${schema}`, body, 'Body');
    },
    expectRequestMatches(method, pathOrTemplate, body) {
      const { template, op } = operation(method, pathOrTemplate);
      const what = `${method.toUpperCase()} ${template} request body`;
      const content = op.requestBody?.content;
      if (!content) {
        if (body === undefined || body === null || body === '') return;
        throw new ContractError(`${what}: ${label} gives this operation no request body`);
      }
      const media = content['application/json'];
      const [ref] = refsOf(media);
      if (ref) return check(ref, body, what);
      // An inline schema (a list of records, a form's fields): its `$ref`s point into the document.
      if (!media?.schema) throw new ContractError(`${what}: ${label} gives no application/json body (it gives ${Object.keys(content).join(', ')})`);
      const key = `inline:${JSON.stringify(media.schema)}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = load().ajv.compile(JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', `"${documentId}#/components/`)) as object);
        validators.set(key, validate);
      }
      if (!validate(body)) throw new ContractError(`${what} does not match the inline schema of ${label}:\n${describe(validate.errors, body)}`);
    },
    document: () => load().document as ReturnType<Contract['document']>,
  };
}

/** The project's own contract: what the client reads and the simulator must answer. */
export const ownContract = loadContract(OWN_CONTRACT_PATH, "the project's provider contract");

const published = process.env.PROVIDER_CONTRACT_DOCUMENT;
/**
 * The document under test: the project's contract, or the provider's published document in
 * `npm run test:provider-contract`.
 */
export const contract: Contract = published ? loadContract(path.resolve(published), "the provider's published document") : ownContract;

/**
 * The document to check an exchange against: the one under test, or the project's own for an
 * operation the published document leaves out (telemetry; the published-document suite checks
 * that only operations marked unpublished in the table are missing there).
 */
export function contractFor(method: string, pathOrTemplate: string): Contract {
  return contract === ownContract || contract.has(method, pathOrTemplate) ? contract : ownContract;
}
