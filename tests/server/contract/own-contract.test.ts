// The project's own provider contract (server/provider/contract.openapi.json): it is what the
// table of provider operations and the wire schemas make today (so `npm test` fails on a stale
// file), it holds every operation of the table and nothing else, and the checks built on it name
// what breaks it.
import { describe, expect, it } from 'vitest';
import { pathOf, pathParameterNames, providerOperations, type ProviderOperation } from '../../../server/provider/operations';
import { buildProviderContract, providerContractIsCurrent } from '../../../scripts/provider-contract';
import { ContractError, ownContract } from './openapi-contract';

const operations = Object.values(providerOperations) as ProviderOperation[];
type Document = ReturnType<typeof ownContract.document>;
const document = (): Document => ownContract.document();

describe("the project's provider contract file", () => {
  it('is what server/provider/operations.ts and schemas.ts make today (npm run provider:contract writes it)', () => {
    expect(providerContractIsCurrent(), 'server/provider/contract.openapi.json is stale: run npm run provider:contract').toBe(true);
  });

  it('holds every operation of the table, and no other', () => {
    expect(ownContract.operations().sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort());
  });

  it("gives each operation its path parameters, its query parameters, its body when it has one, and its retry rule", () => {
    for (const operation of operations) {
      const entry = document().paths[operation.path]![operation.method.toLowerCase()]! as Document['paths'][string][string] & Record<string, unknown>;
      const parameters = (entry.parameters ?? []) as { name: string; in: string }[];
      expect(parameters.filter((p) => p.in === 'path').map((p) => p.name), operation.id).toEqual(pathParameterNames(operation.path));
      expect(parameters.filter((p) => p.in === 'query').map((p) => p.name), operation.id).toEqual(Object.keys(operation.query ?? {}));
      expect(!!entry.requestBody, operation.id).toBe(!!operation.body);
      expect(entry['x-retry'], operation.id).toBe(operation.retry);
      expect(entry['x-published'], operation.id).toBe(operation.published);
    }
  });

  it('marks repeated-key list filters as exploded form parameters, as the provider takes them', () => {
    const parameters = document().paths['/public/v2/user-terminals']!.get!.parameters as unknown as { name: string; style?: string; explode?: boolean }[];
    expect(parameters.find((p) => p.name === 'serviceLineNumbers')).toMatchObject({ style: 'form', explode: true });
    expect(parameters.find((p) => p.name === 'searchString')).not.toHaveProperty('explode');
  });

  it('closes wire objects, except the telemetry record whose alert flags come and go', () => {
    const contract = buildProviderContract() as { components: { schemas: Record<string, { additionalProperties?: unknown; properties?: Record<string, unknown> }> } };
    const schemas = contract.components.schemas;
    expect(schemas.ServiceLine!.additionalProperties).toBe(false);
    expect(schemas.UserTerminal!.additionalProperties).toBe(false);
    const record = (schemas.Telemetry!.properties!.userTerminals as { additionalProperties: { additionalProperties: unknown } }).additionalProperties;
    expect(record.additionalProperties).toEqual({});
  });
});

describe('checks against the contract', () => {
  it('name the field that breaks the schema and the value it got', () => {
    const body = { errors: null, warnings: null, information: null, isValid: true, content: { accountNumber: 42, nickname: 'x' } };
    const check = () => ownContract.expectResponseMatches('GET', '/api/public/v2/account', 200, body);
    expect(check).toThrow(ContractError);
    expect(check).toThrow(/\/content\/accountNumber must be string \(got 42\)/);
    expect(check).toThrow(/must NOT have additional properties 'nickname'/);
  });

  it('accept the same answer once it is right', () => {
    const body = { errors: null, warnings: null, information: null, isValid: true, content: { accountNumber: 'ACC-1', regionCode: 'US', accountName: null, activeSuspensions: [] } };
    expect(() => ownContract.expectResponseMatches('GET', '/api/public/v2/account', 200, body)).not.toThrow();
  });

  it('resolve concrete paths, with any base and query, to the template', () => {
    expect(ownContract.resolvePathTemplate('http://127.0.0.1:4010/simulator/api/public/v2/service-lines/AST-1/user-terminals/KIT1?x=1')).toBe(
      '/public/v2/service-lines/{serviceLineNumber}/user-terminals/{deviceId}',
    );
    expect(ownContract.resolvePathTemplate('/public/v2/data-usage/query?page=2')).toBe('/public/v2/data-usage/query');
    expect(() => ownContract.resolvePathTemplate('/public/v2/no-such-resource/R1')).toThrow(/not a path/);
  });

  it('reject a 2xx status the contract does not give, and a request body it does not allow', () => {
    expect(() => ownContract.expectResponseMatches('GET', '/public/v2/account', 201, {})).toThrow(/does not give/);
    expect(() => ownContract.expectRequestMatches('POST', '/public/v2/data-usage/query', { previousBillingCycles: 1.5 })).toThrow(/previousBillingCycles/);
    expect(() => ownContract.expectRequestMatches('POST', '/public/v2/service-lines/AST-1/user-terminals', { deviceId: '' })).toThrow(/deviceId/);
    expect(() => ownContract.expectRequestMatches('GET', '/public/v2/account', { page: 1 })).toThrow(/no request body/);
  });

  it('take a 403 as either the plain envelope or the missing-permission one', () => {
    const plain = { errors: [{ memberNames: ['Content-Type'], errorMessage: 'Content-Type must be application/json' }], warnings: null, information: null, isValid: false };
    ownContract.expectResponseMatches('POST', '/public/v2/user-terminals/UT1/reboot', 403, plain);
    const permission = { ...plain, content: { accountId: 'ACC-1', requiredPermission: { featureAccess: 3, permission: 2 }, featureAccessString: 'Devices', permissionString: 'Write' } };
    ownContract.expectResponseMatches('POST', '/public/v2/user-terminals/UT1/reboot', 403, permission);
    expect(() => ownContract.expectResponseMatches('POST', '/public/v2/user-terminals/UT1/reboot', 403, { ...plain, content: { accountId: 7 } })).toThrow(ContractError);
  });
});

describe('paths from the table', () => {
  it('fill each parameter as one encoded segment, and refuse an empty one', () => {
    expect(pathOf('/public/v2/service-lines/{serviceLineNumber}/user-terminals/{deviceId}', { serviceLineNumber: 'AST 1/2', deviceId: 'UT1' })).toBe(
      '/public/v2/service-lines/AST%201%2F2/user-terminals/UT1',
    );
    expect(() => pathOf('/public/v2/user-terminals/{deviceId}/reboot', { deviceId: ' ' })).toThrow('deviceId is required');
  });
});
