import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, holdCalls, refreshSession } from './api-client';
import { useAuthStore } from './auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';
import { adminUser as user } from '@/test/session-users';

const expired = jsonResponse(
  { detail: 'Your session has expired. Sign in again.', code: 'unauthenticated' },
  401,
);
const refreshed = jsonResponse({ access_token: 'new', user }, 200);

describe('the API client on an expired access token', () => {
  let assign: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useAuthStore.setState({ user, accessToken: 'old', isAuthenticated: true, isLoading: false });
    assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    useAuthStore.getState().clear();
  });

  it('refreshes once and retries with the new token', async () => {
    const server = fakeApi({
      'GET /api/users': [expired, jsonResponse({ ok: true }, 200)],
      'POST /api/auth/refresh': refreshed,
    });
    await expect(api.get('/users')).resolves.toEqual({ ok: true });
    expect(server.requests[1]?.url).toBe('/api/auth/refresh');
    expect(server.requests[2]?.headers).toMatchObject({ authorization: 'Bearer new' });
    expect(useAuthStore.getState().accessToken).toBe('new');
  });

  it('signs out and goes to the sign-in page when the server refuses the refresh', async () => {
    fakeApi({
      'GET /api/users': expired,
      'POST /api/auth/refresh': jsonResponse(
        { detail: 'Your session has ended.', code: 'session_expired' },
        401,
      ),
    });
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    expect(useAuthStore.getState()).toMatchObject({ user: null, isAuthenticated: false });
    expect(assign).toHaveBeenCalledWith('/admin/login');
  });

  it('keeps the session when the refresh gets no answer (a reload, the network down)', async () => {
    fakeApi({
      'GET /api/users': expired,
      'POST /api/auth/refresh': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(api.get('/users')).rejects.toMatchObject({ status: 401 });
    expect(useAuthStore.getState()).toMatchObject({ user, isAuthenticated: true });
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('refreshSession', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('shares one request between concurrent callers', async () => {
    const server = fakeApi({ 'POST /api/auth/refresh': refreshed });
    expect(await Promise.all([refreshSession(), refreshSession()])).toEqual(['refreshed', 'refreshed']);
    expect(server.requests).toHaveLength(1);
  });

  it('tells a refusal from no answer', async () => {
    fakeApi({ 'POST /api/auth/refresh': jsonResponse({ detail: 'ended' }, 401) });
    expect(await refreshSession()).toBe('refused');
    fakeApi({ 'POST /api/auth/refresh': () => Promise.reject(new DOMException('aborted', 'AbortError')) });
    expect(await refreshSession()).toBe('unreachable');
  });
});

describe('restoring a remembered session', () => {
  afterEach(() => {
    delete window.lumiSessionRefresh;
    useAuthStore.getState().clear();
  });

  it("takes over the page's early refresh instead of sending another", async () => {
    const server = fakeApi({});
    window.lumiSessionRefresh = Promise.resolve(refreshed.clone());
    expect(await refreshSession()).toBe('refreshed');
    expect(server.requests).toHaveLength(0);
    expect(useAuthStore.getState().accessToken).toBe('new');
  });

  it('holds a call made while the session is restored until the refresh is done, then sends its token', async () => {
    useAuthStore.setState({ user, accessToken: null, isAuthenticated: true, isLoading: true });
    const server = fakeApi({
      'POST /api/auth/refresh': refreshed,
      'GET /api/users': jsonResponse({ ok: true }, 200),
    });
    const restore = refreshSession();
    await expect(api.get('/users')).resolves.toEqual({ ok: true });
    await restore;
    expect(server.requests.map((r) => r.url)).toEqual(['/api/auth/refresh', '/api/users']);
    expect(server.requests[1]?.headers).toMatchObject({ authorization: 'Bearer new' });
  });

  it('does not send a call at all when the restore is refused', async () => {
    useAuthStore.setState({ user, accessToken: null, isAuthenticated: true, isLoading: true });
    const server = fakeApi({ 'POST /api/auth/refresh': jsonResponse({ detail: 'ended' }, 401) });
    void refreshSession();
    await expect(api.get('/users')).rejects.toMatchObject({ status: 401 });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/auth/refresh']);
  });
});

describe('a refusal that names a pending action', () => {
  beforeEach(() =>
    useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false }),
  );
  afterEach(() => useAuthStore.getState().clear());

  it.each([
    ['password_change_required', 'password_change'],
    ['two_factor_setup_required', 'two_factor_setup'],
  ] as const)('records %s as the pending action, so the guards send the user there', async (code, action) => {
    fakeApi({ 'GET /api/users': jsonResponse({ detail: 'Do this first', code }, 403) });
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    expect(useAuthStore.getState().user?.pending_action).toBe(action);
  });

  it.each(['forbidden', 'constructor', '__proto__'])('leaves the user alone on a 403 %s', async (code) => {
    fakeApi({ 'GET /api/users': jsonResponse({ detail: 'No', code }, 403) });
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    expect(useAuthStore.getState().user?.pending_action).toBeNull();
  });
});

describe('calls held until the first paint', () => {
  let release = () => {};
  beforeEach(() =>
    useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false }),
  );
  afterEach(() => {
    // A failed test must not leave the next ones' calls held.
    release();
    useAuthStore.getState().clear();
  });

  it('sends the calls made while held once released, and later calls at once', async () => {
    const server = fakeApi({ 'GET /api/users': jsonResponse({ ok: true }, 200) });
    release = holdCalls();
    const first = api.get('/users');
    await new Promise((resolve) => setTimeout(resolve));
    expect(server.requests).toHaveLength(0);
    release();
    await expect(first).resolves.toEqual({ ok: true });
    await expect(api.get('/users')).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('does not hold the session refresh', async () => {
    useAuthStore.setState({ accessToken: null, isLoading: true });
    const server = fakeApi({ 'POST /api/auth/refresh': refreshed });
    release = holdCalls();
    await expect(refreshSession()).resolves.toBe('refreshed');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/auth/refresh']);
  });
});

describe('the call first-load.js sent early on an alert’s link', () => {
  const early = (token: string, calls: Record<string, Promise<Response>>) => {
    window.lumiEarlyCalls = { token, calls };
  };
  // How long the page has been loading: an early answer is taken within its first 30 s (early-calls.ts).
  let pageAge = 1_000;
  beforeEach(() => {
    pageAge = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => pageAge);
    useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false });
  });
  afterEach(() => {
    vi.mocked(performance.now).mockRestore();
    delete window.lumiEarlyCalls;
    useAuthStore.getState().clear();
  });

  it('takes the early answer for the same address and token once, then asks the server', async () => {
    const server = fakeApi({ 'GET /api/alerts/rules': jsonResponse({ from: 'server' }, 200) });
    early('token', { '/api/alerts/rules': Promise.resolve(jsonResponse({ from: 'early' }, 200)) });
    await expect(api.get('/alerts/rules')).resolves.toEqual({ from: 'early' });
    expect(server.requests).toHaveLength(0);
    await expect(api.get('/alerts/rules')).resolves.toEqual({ from: 'server' });
    expect(server.requests).toHaveLength(1);
  });

  it('asks the server for another address, with another token, or when the early call failed', async () => {
    const server = fakeApi({
      'GET /api/alerts/rules': jsonResponse({ from: 'server' }, 200),
      'GET /api/roles': jsonResponse({ from: 'server' }, 200),
    });
    early('other', { '/api/alerts/rules': Promise.resolve(jsonResponse({ from: 'early' }, 200)) });
    await expect(api.get('/alerts/rules')).resolves.toEqual({ from: 'server' });
    early('token', {
      '/api/alerts/rules?x=1': Promise.resolve(jsonResponse({ from: 'early' }, 200)),
      '/api/roles': Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(api.get('/alerts/rules')).resolves.toEqual({ from: 'server' });
    await expect(api.get('/roles')).resolves.toEqual({ from: 'server' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/alerts/rules',
      '/api/alerts/rules',
      '/api/roles',
    ]);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer token');
  });

  it('asks the server once the page has been loading longer than an early answer is used', async () => {
    const server = fakeApi({ 'GET /api/alerts/rules': jsonResponse({ from: 'server' }, 200) });
    early('token', { '/api/alerts/rules': Promise.resolve(jsonResponse({ from: 'early' }, 200)) });
    pageAge = 30_001;
    await expect(api.get('/alerts/rules')).resolves.toEqual({ from: 'server' });
    expect(server.requests).toHaveLength(1);
  });

  it('treats an early refusal as its own: an expired token is refreshed and the call sent again', async () => {
    const server = fakeApi({
      'POST /api/auth/refresh': refreshed,
      'GET /api/alerts/rules': jsonResponse({ from: 'server' }, 200),
    });
    early('token', { '/api/alerts/rules': Promise.resolve(expired.clone()) });
    await expect(api.get('/alerts/rules')).resolves.toEqual({ from: 'server' });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/auth/refresh', '/api/alerts/rules']);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer new');
  });
});
