import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import toast, { useToasterStore } from 'react-hot-toast';
import { PAGE_TITLES } from '../../src/domain/navigation';
import { FullPageSpinner } from '../../src/ui/common/FullPageSpinner';
import { PageHeader } from '../../src/ui/common/PageHeader';
import { ToastArea } from '../../src/ui/common/ToastArea';
import { renderStrict } from './render';

describe('PageHeader', () => {
  it('shows the title, subtitle, actions and a breadcrumb whose linked crumbs navigate', async () => {
    const onNavigate = vi.fn();
    const { user } = renderStrict(
      <PageHeader
        title="Starlink API Simulator"
        subtitle="Query the provider"
        breadcrumb={PAGE_TITLES['/customers/starlink-simulator'].breadcrumb}
        actions={<button type="button">Refresh</button>}
        onNavigate={onNavigate}
      />,
    );

    expect(screen.getByRole('heading', { level: 1, name: 'Starlink API Simulator' })).toBeTruthy();
    expect(screen.getByText('Query the provider')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();

    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await user.click(within(trail).getByRole('link', { name: 'Customers' }));
    expect(onNavigate).toHaveBeenCalledWith('/customers');
    expect(within(trail).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
    const current = within(trail).getByText('Starlink API Simulator');
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(current.closest('a')).toBeNull();
  });

  it('links Dashboard to /dashboard on the users page', () => {
    renderStrict(<PageHeader title="User Management" breadcrumb={PAGE_TITLES['/users'].breadcrumb} onNavigate={() => {}} />);
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('omits the breadcrumb when there are no crumbs', () => {
    renderStrict(<PageHeader title="Enterprise Dashboard" breadcrumb={[]} onNavigate={() => {}} />);
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull();
  });
});

describe('FullPageSpinner', () => {
  it('announces that the session is being checked', () => {
    renderStrict(<FullPageSpinner />);
    expect(screen.getByRole('status').textContent).toContain('Checking your session...');
  });
});

describe('ToastArea', () => {
  /** Lists the messages the toast store still counts as visible, newest first. */
  function VisibleToasts() {
    const { toasts } = useToasterStore();
    const visible = toasts.filter((t) => t.visible).map((t) => String(t.message));
    return <output aria-label="Visible toasts">{visible.join(' | ')}</output>;
  }

  it('keeps at most three toasts visible, dismissing the oldest', async () => {
    renderStrict(
      <>
        <ToastArea />
        <VisibleToasts />
      </>,
    );
    act(() => {
      for (const n of [1, 2, 3, 4]) toast(`Message ${n}`);
    });

    const visible = screen.getByRole('status', { name: 'Visible toasts' });
    await waitFor(() => expect(visible.textContent).toBe('Message 4 | Message 3 | Message 2'));
    act(() => toast.remove());
  });

  it('gives toasts a 4 second default lifetime', async () => {
    vi.useFakeTimers();
    try {
      renderStrict(
        <>
          <ToastArea />
          <VisibleToasts />
        </>,
      );
      act(() => {
        toast.success('Saved');
      });
      const visible = screen.getByRole('status', { name: 'Visible toasts' });
      expect(visible.textContent).toBe('Saved');
      act(() => vi.advanceTimersByTime(3900));
      expect(visible.textContent).toBe('Saved');
      act(() => vi.advanceTimersByTime(200));
      expect(visible.textContent).toBe('');
    } finally {
      act(() => toast.remove());
      vi.useRealTimers();
    }
  });
});
