// Activating a terminal in Chromium against the real server and the built-in provider simulator:
// an admin takes a kit from the box (the simulator's stock) to an active, named line at a new
// address for a customer, from that customer's page; then tops the line up and ends it at the end
// of its billing cycle from the terminal's Settings, without leaving the portal.
import { describe, expect, it } from 'vitest';
import { ACTIVATION_MESSAGES } from '../../src/domain/activations';
import { CUSTOMER_USAGE_MESSAGES } from '../../src/domain/customer-terminals';
import { SERVICE_LINE_MESSAGES, type ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { createFleet, DEFAULT_SEED } from '../../server/simulator/fleet/index';
import { signInAsAdminAt, useBrowserSession, waitForUsageRun } from './harness';

const TERMINALS = 60;
const session = useBrowserSession({ SIM_TERMINALS: String(TERMINALS) });
const api = session.api;

describe('activating a terminal in the browser', () => {
  it('an admin activates a kit for a customer at a new address, tops its line up and ends it at the end of the cycle', async () => {
    // The portal's simulator runs the default seed: the same fleet here knows its stock kits.
    const kit = createFleet({ seed: DEFAULT_SEED, terminals: TERMINALS }).stockKitSerials()[0]!;
    const page = await session.context.newPage();
    await signInAsAdminAt(page, session.portal, '/customers');
    await waitForUsageRun(page, session.portal);
    const { customer } = await api<{ customer: { uuid: string; name: string } }>(page, '/customers', {
      method: 'POST',
      body: { company: 'Quarry Works', name: 'Ines Duarte', email: 'ines.duarte@quarryworks.example', expirationDays: 365 },
    });

    await page.goto(`${session.portal.url}/customer/terminals/${customer.uuid}`);
    await page.getByRole('heading', { name: CUSTOMER_USAGE_MESSAGES.title }).waitFor();
    await page.getByRole('button', { name: 'Add Terminal' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Terminal' });

    await wizard.getByLabel('Kit or dish serial').fill(kit);
    await wizard.getByRole('button', { name: 'Next' }).click();
    // The customer is preset from the page: the address comes next.
    await wizard.getByRole('button', { name: 'Enter a new address' }).click();
    await wizard.getByLabel('Address line 1').fill('9 Quarry Lane');
    await wizard.getByLabel('Formatted address').fill('9 Quarry Lane, Moab, UT 84532, US');
    await wizard.getByLabel('Latitude').fill('38.57');
    await wizard.getByLabel('Longitude').fill('-109.55');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText(/Local Priority 50 GB/).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Nickname (optional)').fill('Quarry office');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText(kit).first().waitFor();
    await wizard.getByRole('button', { name: 'Activate' }).click();

    await wizard.getByRole('region', { name: 'Terminal activated' }).waitFor({ timeout: 30_000 });
    const done = wizard.getByRole('list', { name: 'Activation steps' });
    await expect(done.getByRole('listitem').count()).resolves.toBe(7);
    const line = (await api<{ results: { kit_serial_number: string; service_line_number: string; user_terminal_id: string }[] }>(page, `/terminals?search=${kit}`)).results[0]!;
    await page.getByText(ACTIVATION_MESSAGES.completed(line.service_line_number)).first().waitFor();
    // The footer's Close (the header's close icon has the same name).
    await wizard.getByRole('button', { name: 'Close' }).last().click();
    await wizard.waitFor({ state: 'detached' });
    // The customer's page lists the new line.
    await page.getByText(line.service_line_number).first().waitFor();

    // Its Settings: a top-up, then the end of the line at the end of the cycle.
    await page.goto(`${session.portal.url}/terminals?terminal=${line.user_terminal_id}`);
    const details = page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle });
    await details.getByRole('tab', { name: 'Settings' }).click();
    await details.getByText('Quarry office').first().waitFor();
    await details.getByRole('button', { name: 'Buy Top-Up' }).click();
    const topUp = page.getByRole('dialog', { name: 'Buy Top-Up' });
    await topUp.getByRole('button', { name: 'Continue' }).click();
    await topUp.getByText('50.00 USD').waitFor();
    await topUp.getByRole('button', { name: 'Buy Top-Up' }).click();
    await page.getByText(SERVICE_LINE_MESSAGES.toppedUp).first().waitFor();
    await topUp.waitFor({ state: 'detached' });

    await details.getByRole('button', { name: 'Deactivate Service Line' }).click();
    const end = page.getByRole('dialog', { name: 'Deactivate Service Line' });
    await end.getByLabel('At the end of the billing cycle').check();
    await end.getByLabel('Reason').fill('Season over');
    await end.getByRole('button', { name: 'Continue' }).click();
    await end.getByText(customer.name).first().waitFor();
    await end.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await details.getByText(/Ends on \d{1,2} [A-Z][a-z]{2} \d{4}/).first().waitFor();

    const settings = await api<ServiceLineSettingsWire>(page, `/service-lines/${line.service_line_number}/settings`);
    expect(settings).toMatchObject({ nickname: 'Quarry office', active: true, endDate: expect.any(String), topUpBlocksThisCycle: 1, customer: { uuid: customer.uuid } });
  });
});
