// My Alerts (/my/alerts) for a signed-in customer, and the same page in an admin's "View as
// customer" preview, through the whole client over a fake portal API.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MY_ALERTS_EMPTY, RESOLVED_TITLE, UNRESOLVED_TITLE } from '../../src/ui/my/MyAlertsView';
import { customerProfile } from '../machines/fixtures';
import { customerFixture } from '../fixtures/customers';
import { acknowledgedAlert, envelope, offlineAlert, resolvedAlert } from '../fixtures/alerts';
import { fakePortalApi } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

describe('My Alerts', () => {
  it('lists the unresolved alerts first and the resolved ones apart, with no action', async () => {
    const api = fakePortalApi({ 'GET /api/v1/my/alerts': { body: envelope({ alerts: [resolvedAlert, offlineAlert, acknowledgedAlert] }) } }, customerProfile);
    openSignedInAt('/my/alerts', api.fetch, { profile: customerProfile });
    const unresolved = within(await screen.findByRole('table', { name: UNRESOLVED_TITLE }));
    expect(unresolved.getByText(offlineAlert.message)).toBeTruthy();
    expect(unresolved.getByText('Acknowledged')).toBeTruthy();
    const resolved = within(screen.getByRole('table', { name: RESOLVED_TITLE }));
    expect(resolved.getByText('Resolved')).toBeTruthy();
    expect(resolved.queryByText(offlineAlert.message)).toBeNull();
    expect(within(screen.getByRole('main')).queryAllByRole('button')).toHaveLength(0);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Alerts' }).getAttribute('href')).toBe('/my/alerts');
  });

  it('says so when there is no alert', async () => {
    const api = fakePortalApi({ 'GET /api/v1/my/alerts': { body: envelope({ alerts: [] }) } }, customerProfile);
    openSignedInAt('/my/alerts', api.fetch, { profile: customerProfile });
    expect(await screen.findByText(MY_ALERTS_EMPTY)).toBeTruthy();
  });

  it("the admin preview reads the customer's alerts through the preview route", async () => {
    const previewed = customerFixture();
    const api = fakePortalApi({
      [`POST /api/v1/customers/${previewed.uuid}/preview`]: { body: envelope({ customer: previewed }) },
      [`GET /api/v1/customers/${previewed.uuid}/preview/alerts`]: { body: envelope({ alerts: [offlineAlert] }) },
    });
    openSignedInAt(`/customers/${previewed.uuid}/preview/alerts`, api.fetch);
    expect(await screen.findByText(offlineAlert.message)).toBeTruthy();
    await waitFor(() => expect(api.calls.some((c) => c.includes('/api/v1/my/'))).toBe(false));
  });
});
