import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { SHOW_THEM, SubscriptionsView, type SubscriptionsViewProps } from '../../src/ui/subscriptions/SubscriptionsView';
import { SUBSCRIPTION_MESSAGES } from '../../src/domain/subscriptions';
import { SL, subscription, subscriptionPage } from '../fixtures/subscriptions-client';
import { renderStrict } from './render';

const within1TB = subscription({
  terminalId: 'UT-0002',
  serviceLineNumber: 'AST-622190-48211-07',
  plan: '1 TB',
  monthlyDataGB: 1000,
  usedGB: 1234.5,
  remainingGB: 0,
  overageGB: 0,
  overageCharges: 0,
  status: 'Active',
  forecast: null,
  location: null,
});

function renderView(props: Partial<SubscriptionsViewProps> = {}) {
  const callbacks = {
    onSearch: vi.fn(),
    onPlanFilter: vi.fn(),
    onOverPlan: vi.fn(),
    onPage: vi.fn(),
    onRetry: vi.fn(),
    onRefresh: vi.fn(),
    onChangePlan: vi.fn(),
    onNavigate: vi.fn(),
  };
  const all: SubscriptionsViewProps = {
    data: subscriptionPage([subscription(), within1TB]),
    loading: false,
    error: null,
    search: '',
    plan: 'all',
    overPlan: false,
    page: 1,
    ...callbacks,
    ...props,
  };
  return { ...renderStrict(<SubscriptionsView {...all} />), ...callbacks };
}

const card = (title: string) => screen.getByRole('region', { name: title }).textContent;
const rows = () => within(screen.getByRole('table', { name: 'Subscriptions' })).getAllByRole('row').slice(1);

describe('SubscriptionsView', () => {
  it('shows the title, the breadcrumb Home > Subscriptions and the five summary cards', () => {
    renderView();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' })).toBeTruthy();
    expect(card('Total Terminals')).toContain('2');
    expect(card('50 GB Plans')).toContain('2');
    expect(card('1 TB Plans')).toContain('0');
    expect(card('Overage Terminals')).toContain('1');
    expect(card('Total Overage in GB')).toContain('7.3 GB');
  });

  it('warns about terminals over their plan, and "Show them" sets the over-plan filter', async () => {
    const { user, onOverPlan } = renderView();
    expect(screen.getByText(SUBSCRIPTION_MESSAGES.overBanner(1))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: SHOW_THEM }));
    expect(onOverPlan).toHaveBeenCalledExactlyOnceWith(true);
  });

  it('shows no banner when no terminal is over its plan', () => {
    const page = subscriptionPage([within1TB]);
    renderView({ data: { ...page, summary: { ...page.summary, overageTerminals: 0 } } });
    expect(screen.queryByRole('button', { name: SHOW_THEM })).toBeNull();
  });

  it('shows each row with use against the plan, overage with its charges, the projection and the status', () => {
    renderView();
    const [over, within] = rows().map((r) => r.textContent ?? '');
    expect(over).toContain('UT-0001A2B3');
    expect(over).toContain(SL);
    expect(over).toContain('Lisbon Harbour');
    expect(over).toContain('57.3 GB / 50 GB');
    expect(over).toContain('36.50 USD');
    expect(over).toContain('≈ 114.6 GB');
    expect(over).toContain('Over Plan');
    expect(within).toContain('1.2 TB / 1 TB');
    expect(within).toContain('—');
    expect(within).toContain('Active');
    expect(screen.getByText(`Forecast: ${SUBSCRIPTION_MESSAGES.projection}`)).toBeTruthy();
  });

  it('the Change Plan button of a row hands that subscription on', async () => {
    const { user, onChangePlan } = renderView();
    await user.click(screen.getByRole('button', { name: `Change Plan ${SL}` }));
    expect(onChangePlan).toHaveBeenCalledExactlyOnceWith(subscription());
  });

  it('typing a search and ticking the over-plan toggle hand them on', async () => {
    const { user, onSearch, onOverPlan } = renderView();
    await user.type(screen.getByRole('searchbox', { name: 'Search subscriptions' }), 'L');
    expect(onSearch).toHaveBeenCalledWith('L');
    await user.click(screen.getByRole('checkbox', { name: 'Over plan only' }));
    expect(onOverPlan).toHaveBeenCalledWith(true);
  });

  it('shows "Loading subscriptions..." before the first answer', () => {
    renderView({ data: null, loading: true });
    expect(screen.getByText(SUBSCRIPTION_MESSAGES.loading)).toBeTruthy();
  });

  it('shows "Error: " and the message with Try Again', async () => {
    const { user, onRetry } = renderView({ data: null, error: 'Failed to fetch subscriptions' });
    expect(screen.getByText('Error: Failed to fetch subscriptions')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('moving to the next page asks for page 2', async () => {
    const many = subscriptionPage([subscription()], { pagination: { total: 60, page: 1, limit: 25, pages: 3 } });
    const { user, onPage } = renderView({ data: many });
    await user.click(screen.getByRole('button', { name: 'Next Page' }));
    expect(onPage).toHaveBeenCalledExactlyOnceWith(2);
  });
});
