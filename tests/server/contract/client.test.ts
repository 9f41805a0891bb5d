// Every request the client sends is one the contract allows: a documented operation, documented
// query parameters, a request body matching its schema; and the client calls every operation of
// the table. The answers it read (from the simulator) are checked against the contract too.
// The contract is the project's own, or the provider's published document in
// `npm run test:provider-contract` (see ./openapi-contract.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStarlinkClient, type StarlinkClient } from '../../../server/provider';
import { providerOperations } from '../../../server/provider/operations';
import { startSimulator, type RunningSimulator } from '../../../server/simulator';
import { routerStateOf } from '../../../server/simulator/routers';
import { contract, contractFor } from './openapi-contract';
import { TEST_TLS } from './tls-fixture';

interface Exchange {
  method: string;
  url: URL;
  contentType: string | null;
  body: unknown;
  status: number;
  answer: unknown;
}

let sim: RunningSimulator;
let client: StarlinkClient;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 'provider-contract', terminals: 300 });
  client = createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: sim.tokenUrl,
    ...sim.credentials,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      const url = new URL(String(input));
      if (url.pathname.includes('/public/v2/')) {
        exchanges.push({
          method: init?.method ?? 'GET',
          url,
          contentType: new Headers(init?.headers).get('content-type'),
          body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
          status: response.status,
          answer: text ? (JSON.parse(text) as unknown) : null,
        });
      }
      return new Response(text || null, { status: response.status, headers: response.headers });
    },
  });
  const line = sim.fleet.knownServiceLineNumber;
  const terminal = sim.fleet.knownUserTerminalId;
  await client.getAccount();
  await client.listProducts();
  const lines = await client.listServiceLines();
  await client.getServiceLine(line);
  await client.getAddress(lines.items[0]!.addressReferenceId!);
  await client.listAddresses({ addressIds: [lines.items[0]!.addressReferenceId!, lines.items[1]!.addressReferenceId!] });
  await client.listUserTerminals();
  await client.listUserTerminals({ searchString: 'KIT', serviceLineNumbers: [line, lines.items[1]!.serviceLineNumber], userTerminalIds: [terminal], hasServiceLine: true });
  await client.queryDataUsage({ serviceLineNumbers: [line], previousBillingCycles: 2, activeServiceLinesOnly: false, queryStartDate: '2026-09-01T00:00:00Z' }, { limit: 100 });
  await client.queryDataUsage();
  await client.detachTerminal(line, terminal);
  await client.attachTerminal(line, terminal);
  await client.changeServiceLineProduct(line, 'SUB-METERED-1TB');
  await client.rebootTerminal(terminal);
  await client.queryTelemetry([terminal]);
  await client.queryTelemetry();
  // The service lifecycle: a kit from stock to an active, named line, and ended again.
  const kit = sim.fleet.examples().stockKitSerialNumber!;
  await client.addUserTerminal(kit);
  const site = { addressLines: ['1 Rocket Road'], locality: 'Hawthorne', administrativeArea: 'California', region: 'United States', postalCode: '90250', formattedAddress: '1 Rocket Road, Hawthorne, CA 90250, US', latitude: 33.92, longitude: -118.33 };
  const address = await client.createAddress(site, { key: 'contract-test-address' });
  await client.updateAddress(address.addressReferenceId, { ...site, addressLines: ['2 Rocket Road'], formattedAddress: '2 Rocket Road, Hawthorne, CA 90250, US' });
  const created = await client.createServiceLine({
    addressReferenceId: address.addressReferenceId,
    productReferenceId: 'SUB-PRIORITY-BLOCKS',
    recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 2 }],
  });
  const number = created.serviceLineNumber;
  await client.attachTerminal(number, kit);
  await client.setServiceLineNickname(number, 'Contract test site');
  await client.setServiceLinePublicIp(number, true);
  await client.optInPriorityData(number);
  await client.optOutPriorityData(line);
  await client.setRecurringDataBlocks(number, { recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-1TB', count: 1 }], applyToCurrentMonth: true });
  await client.topUpServiceLine(number, { productId: 'DATA-TOPUP-50GB', count: 1 });
  await client.listPartialPeriods(number);
  await client.detachTerminal(number, kit);
  await client.removeUserTerminal(kit);
  await client.deactivateServiceLine(number, { endNow: false, reason: 'Contract test' });
  // Billing, contacts, managed accounts, data pools.
  const invoices = await client.listInvoices();
  await client.getInvoice(invoices.items[0]!.invoiceId);
  await client.getBalance();
  const contact = await client.createContact({ firstName: 'Nia', lastName: 'Okafor', roles: ['Technical'], email: 'nia@example.com', phoneNumber: '+1 555 0102', locale: 'en-US' });
  await client.listContacts();
  await client.updateContact(contact.subjectId, { roles: ['Technical', 'Billing'] });
  await client.deleteContact(contact.subjectId);
  const managed = await client.createManagedCustomer({ firstName: 'Ana', lastName: 'Ruiz', email: 'ana@ruiz.example', phone: '+34 600 000 000', locale: 'es', businessName: 'Ruiz Agro' });
  await client.getManagedAccountTree();
  await client.listManagedAccounts({ searchString: 'ruiz', accountNumbers: [managed.accountNumber!], maxDepth: 1 });
  const pools = await client.listDataPools({ productReferenceId: 'SUB-POOL-LAND' });
  await client.setConsumeFromPool(lines.items.find((l) => l.active)!.serviceLineNumber, true);
  await client.queryDataPoolUsage({ dataPoolIds: [pools.items[0]!.dataPoolId], asOfTimestamp: new Date(Date.now() - 60_000).toISOString() });
  await client.setDataPoolAutomaticTopUp(pools.items[0]!.dataPoolId, true);
  // Routers and terminal configuration: a router read and rebooted; a page uploaded and named by a
  // config that is replaced, assigned and made the default; a certificate added and removed;
  // sandbox clients and a heartbeat; a terminal config; L2VPN circuits on a Priority line's terminal.
  const reachable = (t: number) => Date.now() - Date.parse(sim.fleet.telemetryAt(t).timestamp) <= 60_000;
  const routed = sim.fleet.userTerminalIds().map((id) => sim.fleet.terminalIndex(id)!).find((t) => {
    const record = sim.fleet.terminal(t);
    return record.routers.length > 0 && record.serviceLineNumber !== null && sim.fleet.serviceLine(record.serviceLineNumber)!.active && reachable(t);
  })!;
  const routerId = sim.fleet.terminal(routed).routers[0]!.routerId;
  await client.getRouter(routerId);
  await client.rebootRouter(routerId);
  const html = await client.uploadLocalContent('<!doctype html><html><head><title>Contract test</title></head><body>Welcome</body></html>');
  await client.listLocalContent();
  const routerConfig = await client.createRouterConfig({
    nickname: 'Contract test',
    routerConfigJson: JSON.stringify({ httpsServer: { fileContentId: html.fileContentId, fileContentHash: html.fileContentHash } }),
  });
  await client.listRouterConfigs();
  await client.getRouterConfig(routerConfig.configId);
  await client.updateRouterConfig(routerConfig.configId, { routerConfigJson: '{}' });
  await client.assignRouterConfig(routerConfig.configId, [routerId]);
  await client.setDefaultRouterConfig(routerConfig.configId);
  await client.getDefaultRouterConfig();
  await client.createTlsConfig(TEST_TLS.a);
  await client.listTlsConfigs();
  await client.deleteTlsConfig(TEST_TLS.a.certificateBase64Pem);
  await client.updateSandboxClients([{ clientId: 'aa:bb:cc:dd:ee:ff', sandboxId: 1, expiry: new Date(Date.now() + 3_600_000).toISOString() }]);
  await client.listSandboxClients({ sandboxId: 1, expiryAfter: new Date().toISOString() });
  await client.sendSandboxHeartbeat(true);
  await client.assignUserTerminalConfig(routerStateOf(sim.fleet)!.terminalConfigIds()[0]!, [terminal]);
  const [circuit] = await client.listL2VpnCircuits();
  const priorityLine = sim.fleet.examples().priorityServiceLineNumber!;
  const priorityTerminal = sim.fleet.terminal(sim.fleet.userTerminals({ serviceLineNumbers: [priorityLine] }).at(0)).userTerminalId;
  await client.setL2VpnCircuits(priorityTerminal, [{ circuitIds: circuit!.circuitIds, customerVlans: [100], serviceVlan: 10 }]);
  await expect(client.getServiceLine('AST-000000-00000-00')).rejects.toThrow();
});

afterAll(async () => {
  await sim?.close();
});

describe(`provider client requests against ${contract.label}`, () => {
  it('sent every operation of the table of provider operations, at its path', () => {
    const sent = new Set(exchanges.map((e) => `${e.method} ${contractFor(e.method, e.url.pathname).resolvePathTemplate(e.url.pathname)}`));
    const table = Object.values(providerOperations).map((operation) => `${operation.method} ${operation.path}`);
    expect([...sent].sort()).toEqual(table.sort());
  });

  it('sends request bodies that match the documented request schemas', () => {
    for (const exchange of exchanges) contractFor(exchange.method, exchange.url.pathname).expectRequestMatches(exchange.method, exchange.url.pathname, exchange.body);
  });

  it('sends only documented query parameters', () => {
    for (const exchange of exchanges) {
      const checked = contractFor(exchange.method, exchange.url.pathname);
      const documented = checked.queryParameters(exchange.method, exchange.url.pathname);
      const template = checked.resolvePathTemplate(exchange.url.pathname);
      for (const key of new Set(exchange.url.searchParams.keys())) expect(documented, `${exchange.method} ${template} ?${key}`).toContain(key);
    }
  });

  it('sends a JSON content type on every POST and PUT', () => {
    const writes = exchanges.filter((e) => e.method === 'POST' || e.method === 'PUT');
    expect(writes.length).toBeGreaterThanOrEqual(5);
    for (const write of writes) expect(write.contentType).toBe('application/json');
  });

  it('read answers that match the documented response schemas', () => {
    for (const exchange of exchanges) {
      contractFor(exchange.method, exchange.url.pathname).expectResponseMatches(exchange.method, exchange.url.pathname, exchange.status, exchange.answer);
    }
  });
});
