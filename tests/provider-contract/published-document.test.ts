// The project's provider contract against the provider's published OpenAPI document
// (`npm run test:provider-contract`, the document's path in PROVIDER_OPENAPI). The simulator's
// answers and the client's requests are checked against the published document by the contract
// suites this command runs beside this file; here the table itself is held to it:
// - every operation marked published is one of the document's, with the same path parameters,
//   and takes only query parameters the document gives; the unpublished ones are not in it;
// - every field the project's request and answer schemas name is a field of the document's
//   schema at the same place, with a compatible type: the contract names nothing the provider
//   does not have.
import { describe, expect, it } from 'vitest';
import { pathParameterNames, providerOperations, type ProviderOperation } from '../../server/provider/operations';
import { contract, ownContract, type Contract } from '../server/contract/openapi-contract';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: unknown;
};

const operations = Object.values(providerOperations) as ProviderOperation[];

if (contract === ownContract) {
  throw new Error('This suite checks against the published document: run it with npm run test:provider-contract (PROVIDER_OPENAPI=<path>)');
}

/** A schema with its `$ref`s followed and its `allOf` merged; `anyOf`/`oneOf` become their object or array branch. */
function resolve(schema: Schema | undefined, from: Contract): Schema {
  let current = schema ?? {};
  for (let depth = 0; depth < 20; depth++) {
    if (current.$ref) {
      const name = current.$ref.slice(current.$ref.lastIndexOf('/') + 1);
      current = (from.document().components.schemas[name] ?? {}) as Schema;
      continue;
    }
    if (current.allOf) {
      const merged: Schema = { ...current, allOf: undefined };
      for (const part of current.allOf.map((p) => resolve(p, from))) {
        Object.assign(merged, part, { properties: { ...merged.properties, ...part.properties } });
      }
      delete merged.allOf;
      current = merged;
      continue;
    }
    const branches = current.anyOf ?? current.oneOf;
    if (branches) {
      const resolved = branches.map((b) => resolve(b, from));
      current = resolved.find((b) => b.type === 'object' || b.properties) ?? resolved.find((b) => b.type === 'array') ?? resolved[0] ?? {};
      continue;
    }
    return current;
  }
  return current;
}

const compatible = (ours: string, theirs: string) => ours === theirs || (ours === 'number' && theirs === 'integer');

/** Places where `ours` names a field or a type `theirs` does not have. */
function differences(ours: Schema | undefined, theirs: Schema | undefined, at: string, seen = new Set<string>()): string[] {
  const a = resolve(ours, ownContract);
  const b = resolve(theirs, contract);
  const key = `${at}|${JSON.stringify(a).length}|${JSON.stringify(b).length}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const found: string[] = [];
  const unionTypes = (ours?.anyOf ?? []).map((branch) => resolve(branch, ownContract).type).filter(Boolean) as string[];
  if (a.type && b.type && !compatible(a.type, b.type) && !unionTypes.includes(b.type)) found.push(`${at}: ${a.type} here, ${b.type} in the published document`);
  if (a.properties) {
    const theirProperties = b.properties ?? {};
    for (const [name, schema] of Object.entries(a.properties)) {
      if (!(name in theirProperties)) {
        found.push(`${at}.${name} is not in the published document`);
        continue;
      }
      found.push(...differences(schema, theirProperties[name], `${at}.${name}`, seen));
    }
  }
  if (a.type === 'object' && typeof a.additionalProperties === 'object' && typeof b.additionalProperties === 'object') {
    found.push(...differences(a.additionalProperties as Schema, b.additionalProperties as Schema, `${at}{*}`, seen));
  }
  if (a.type === 'array' && b.type === 'array') found.push(...differences(a.items, b.items, `${at}[]`, seen));
  return found;
}

const jsonSchemaOf = (from: Contract, method: string, path: string, part: 'request' | 'response'): Schema | undefined => {
  const entry = from.document().paths[path]?.[method.toLowerCase()];
  const content = part === 'request' ? entry?.requestBody?.content : entry?.responses?.['200']?.content;
  return content?.['application/json']?.schema as Schema | undefined;
};

describe(`the table of provider operations against ${contract.label}`, () => {
  it('has every published operation of the table in the document, and none of the unpublished ones', () => {
    for (const operation of operations) {
      expect(contract.has(operation.method, operation.path), `${operation.id}: ${operation.method} ${operation.path}`).toBe(operation.published);
    }
  });

  it('gives each published operation the same path parameters as the document', () => {
    for (const operation of operations.filter((o) => o.published)) {
      const parameters = (contract.document().paths[operation.path]![operation.method.toLowerCase()]!.parameters ?? []) as { name: string; in: string }[];
      expect(parameters.filter((p) => p.in === 'path').map((p) => p.name), operation.id).toEqual(pathParameterNames(operation.path));
    }
  });

  it('declares only query parameters the document gives', () => {
    for (const operation of operations.filter((o) => o.published)) {
      const documented = contract.queryParameters(operation.method, operation.path);
      for (const name of Object.keys(operation.query ?? {})) expect(documented, `${operation.id} ?${name}`).toContain(name);
    }
  });

  it('names only request fields the document has, with compatible types', () => {
    const found = operations
      .filter((o) => o.published && o.body)
      .flatMap((o) => differences(jsonSchemaOf(ownContract, o.method, o.path, 'request'), jsonSchemaOf(contract, o.method, o.path, 'request'), `${o.id} request`));
    expect(found).toEqual([]);
  });

  it('names only answer fields the document has, with compatible types', () => {
    const found = operations
      .filter((o) => o.published)
      .flatMap((o) => differences(jsonSchemaOf(ownContract, o.method, o.path, 'response'), jsonSchemaOf(contract, o.method, o.path, 'response'), `${o.id} answer`));
    expect(found).toEqual([]);
  });

  it('finds a field the document does not have (the comparison can fail)', () => {
    const invented: Schema = { type: 'object', properties: { accountNumber: { type: 'string' }, loyaltyTier: { type: 'string' } } };
    const published = resolve({ $ref: '#/components/schemas/AccountResponseV2' }, contract);
    expect(published.properties, 'the published document names AccountResponseV2').toBeDefined();
    expect(differences(invented, { $ref: '#/components/schemas/AccountResponseV2' }, 'account')).toEqual(['account.loyaltyTier is not in the published document']);
  });
});
