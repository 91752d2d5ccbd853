import type { AuthSession } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoute } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { SessionsSection } from './sessions-section';

function session(id: string, overrides: Partial<AuthSession> = {}): AuthSession {
  return {
    id,
    created_at: '2026-11-20T09:00:00Z',
    last_used_at: '2026-11-25T03:00:00Z',
    expires_at: '2026-12-20T09:00:00Z',
    ip_address: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    browser: 'Firefox 133',
    os: 'macOS',
    current: false,
    ...overrides,
  };
}

const here = session('here', { current: true, browser: 'Chrome 131', os: 'Linux' });
const phone = session('phone', { browser: 'Safari 18', os: 'iOS', ip_address: null });
const laptop = session('laptop', { browser: null, os: null, ip_address: '<img src=x onerror=alert(1)>' });

function serve(list: FakeRoute, more: Record<string, FakeRoute> = {}) {
  return fakeApi({ 'GET /api/auth/sessions': list, ...more });
}

describe('Profile → Sessions', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists the sessions with the device, the address and "This device" on this one only', async () => {
    serve(jsonResponse({ sessions: [here, phone, laptop] }));
    renderWithProviders(<SessionsSection />);
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const [first, second, third] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Chrome 131 on Linux');
    expect(within(first!).getByText('This device')).toBeInTheDocument();
    expect(within(first!).queryByRole('button', { name: /Sign out/ })).not.toBeInTheDocument();
    expect(second).toHaveTextContent('Safari 18 on iOS');
    expect(second).toHaveTextContent('Unknown');
    expect(within(second!).queryByText('This device')).not.toBeInTheDocument();
    // Whatever the server recorded is shown as text, never as markup.
    expect(third).toHaveTextContent('Unknown browser');
    expect(third).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img')).toBeNull();
  });

  it('signs out one session after a confirmation, and Cancel sends nothing', async () => {
    const api = serve([jsonResponse({ sessions: [here, phone] }), jsonResponse({ sessions: [here] })], {
      'DELETE /api/auth/sessions/:id': jsonResponse({ ok: true }),
    });
    renderWithProviders(<SessionsSection />);
    const signOut = await screen.findByRole('button', { name: /Sign out Safari 18 on iOS/ });

    await userEvent.click(signOut);
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.requestsTo('/api/auth/sessions/phone')).toEqual([]);

    await userEvent.click(signOut);
    const dialog = screen.getByRole('alertdialog', { name: 'Sign out this session?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.requestsTo('/api/auth/sessions/phone', 'DELETE')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Safari 18 on iOS')).not.toBeInTheDocument());
  });

  it('signs out all other sessions after a confirmation; a refusal stays in the dialog', async () => {
    let signedOut = false;
    const api = serve(() => jsonResponse({ sessions: signedOut ? [here] : [here, phone, laptop] }), {
      'POST /api/auth/sessions/revoke-others': [
        jsonResponse({ detail: 'Service unavailable', code: 'internal', request_id: '1' }, 503),
        jsonResponse({ revoked: 2 }),
      ],
    });
    renderWithProviders(<SessionsSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Sign out all other sessions?' });
    expect(dialog).toHaveTextContent('(2)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out others' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Service unavailable');
    signedOut = true;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out others' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.requestsTo('/api/auth/sessions/revoke-others', 'POST')).toHaveLength(2);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).not.toBeInTheDocument(),
    );
  });

  it('shows a failed load with Retry', async () => {
    serve([
      jsonResponse({ detail: 'Database unavailable', code: 'internal', request_id: '2' }, 503),
      jsonResponse({ sessions: [here] }),
    ]);
    renderWithProviders(<SessionsSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('This device')).toBeInTheDocument();
  });
});

describe('Profile → Sessions, many of them', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('shows this device and the first others, and the rest behind Show all', async () => {
    const many = Array.from({ length: 11 }, (_, i) => session(`s${i}`, { browser: `Browser ${i}` }));
    serve(jsonResponse({ sessions: [...many, here] }));
    renderWithProviders(<SessionsSection />);
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const items = () => within(list).getAllByRole('listitem');
    expect(items()).toHaveLength(5);
    expect(items()[0]).toHaveTextContent('This device');
    await userEvent.click(screen.getByRole('button', { name: 'Show all 12 sessions' }));
    expect(items()).toHaveLength(12);
    await userEvent.click(screen.getByRole('button', { name: 'Show the first 5 only' }));
    expect(items()).toHaveLength(5);
  });
});
