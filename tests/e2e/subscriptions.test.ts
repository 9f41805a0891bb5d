// Subscriptions in Chromium against the real server and the built-in provider simulator: after the
// first sync and its usage run, an admin follows the over-plan banner to a terminal over its plan
// and moves it to a 1 TB plan; the provider applies it and the row follows.
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES, type SubscriptionListWire } from '../../src/domain/subscriptions';
import { signInAsAdminAt, useBrowserSession, waitForUsageRun } from './harness';

const session = useBrowserSession({ SIM_TERMINALS: '80' });
const api = session.api;

describe('subscriptions in the browser', () => {
  it('an admin finds an over-plan terminal from the banner and moves it to a 1 TB plan', async () => {
    const page = await session.context.newPage();
    await signInAsAdminAt(page, session.portal, '/home');
    await waitForUsageRun(page, session.portal);
    const over = await api<SubscriptionListWire>(page, '/subscriptions?over_plan=true&limit=100');
    expect(over.summary.overageTerminals).toBeGreaterThan(0);

    await page.goto(`${session.portal.url}/subscription`);
    await page.getByText(SUBSCRIPTION_MESSAGES.overBanner(over.summary.overageTerminals)).waitFor();
    await page.getByRole('button', { name: 'Show them' }).click();
    await page.waitForURL(/over=true/);

    // The first over-plan row not already on a 1 TB plan.
    const target = over.subscriptions.find((s) => s.monthlyDataGB < 1000)!;
    expect(target).toBeTruthy();
    const row = page.getByRole('row', { name: new RegExp(target.serviceLineNumber) });
    await row.getByText('Over Plan').waitFor();
    await row.getByRole('button', { name: `${SUBSCRIPTION_MESSAGES.changePlan} ${target.serviceLineNumber}` }).click();

    const dialog = page.getByRole('dialog', { name: SUBSCRIPTION_MESSAGES.changePlan });
    await dialog.getByText(/1 TB per month/).first().click();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText(/monthly data 1 TB/).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(SUBSCRIPTION_MESSAGES.planChanged(target.serviceLineNumber, '1 TB')).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The server answers the new plan and monthly data together.
    const after = await api<SubscriptionListWire>(page, `/subscriptions?search=${target.serviceLineNumber}`);
    expect(after.subscriptions[0]).toMatchObject({ serviceLineNumber: target.serviceLineNumber, plan: '1 TB', monthlyDataGB: 1000 });
  });
});
