import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { answers, failWith, serveMetrics, signInAs, stubLayout } from '../test/metrics-fixtures';
import { renderMetricsAt, search } from '../test/render-metrics-at';

const LATENCY = '/api/metrics/llm/latency';
const ERRORS = '/api/metrics/llm/errors';
const FEATURES = '/api/metrics/llm/features';
const CHATS = '/api/metrics/llm/top-chats';
const USERS = '/api/metrics/llm/top-users';
const region = (name: string) => screen.getByRole('region', { name });

describe('Metrics time range and auto-refresh', () => {
  beforeEach(() => {
    stubLayout();
    signInAs(['metrics:read']);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    useAuthStore.getState().clear();
  });

  it('asks for the last 24 hours by default, and writes another range and interval to the URL', async () => {
    const api = serveMetrics();
    renderMetricsAt('/metrics');

    const range = screen.getByLabelText('Time range');
    expect(range).toHaveValue('24h');
    expect(screen.getByLabelText('Auto-refresh')).toHaveValue('off');
    await waitFor(() => expect(api.requestsTo(LATENCY)).toHaveLength(1));
    const first = api.requestsTo(LATENCY)[0]!.query;
    expect(Date.parse(first.get('to')!) - Date.parse(first.get('from')!)).toBe(24 * 3_600_000);
    expect(first.get('interval')).toBe('hour');

    await userEvent.selectOptions(range, '30d');
    expect(search().get('range')).toBe('30d');
    await waitFor(() => expect(api.requestsTo(LATENCY).at(-1)?.query.get('interval')).toBe('day'));
    const month = api.requestsTo(ERRORS).at(-1)!.query;
    expect(Date.parse(month.get('to')!) - Date.parse(month.get('from')!)).toBe(30 * 86_400_000);
    // Once answered, a panel names the whole hours its answer covered.
    expect(await within(region('Errors')).findByText(/^Last 30 days · whole hours ./)).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Auto-refresh'), '1m');
    expect(search().get('refresh')).toBe('1m');
    await userEvent.selectOptions(screen.getByLabelText('Auto-refresh'), 'off');
    expect(search().has('refresh')).toBe(false);
  });

  it('says the period each panel covers: whole hours, or whole UTC days for top chats and users', async () => {
    vi.useFakeTimers({ now: new Date('2025-06-01T10:30:00.000Z'), shouldAdvanceTime: true });
    const hours = { from: '2025-05-31T10:00:00.000Z', to: '2025-06-01T11:00:00.000Z' };
    serveMetrics({
      [FEATURES]: jsonResponse({ ...answers[FEATURES], ...hours }),
      [CHATS]: jsonResponse({ ...answers[CHATS], from_day: '2025-05-31' }),
      [USERS]: jsonResponse({ ...answers[USERS], from_day: '2025-05-31' }),
    });
    renderMetricsAt('/metrics');

    // As the page reads: Intl's narrow spaces are spaces to the queries.
    const read = (text: string) => text.replace(/\s+/g, ' ');
    const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    const wholeHours = dateTime.formatRange(Date.parse(hours.from), Date.parse(hours.to));
    expect(
      await within(region('Cost by feature')).findByText(read(`Last 24 hours · whole hours ${wholeHours}`)),
    ).toBeInTheDocument();
    const utcDates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
    const wholeDays = utcDates.formatRange(Date.parse('2025-05-31'), Date.parse('2025-06-01'));
    const days = read(`Today and the day before (UTC days) · ${wholeDays}`);
    expect(await within(region('Top chats')).findByText(days)).toBeInTheDocument();
    expect(await within(region('Top users')).findByText(days)).toBeInTheDocument();
    // Neither claims the picker's 24 hours; the section says why they differ.
    expect(within(region('Top chats')).queryByText(/Last 24 hours/)).not.toBeInTheDocument();
    expect(
      screen.getByText(/top chats and users, kept per UTC day, the whole UTC days it touches/),
    ).toBeInTheDocument();
  });

  it('reads the range and the interval from a shared link, and keeps the Gemini window beside them', async () => {
    const api = serveMetrics();
    renderMetricsAt(
      '/metrics?range=custom&from=2025-06-01T00:00:00.000Z&to=2025-06-03T00:00:00.000Z&refresh=30s&hours=48',
    );

    expect(screen.getByLabelText('Time range')).toHaveValue('custom');
    expect(screen.getByLabelText('Auto-refresh')).toHaveValue('30s');
    await waitFor(() => expect(api.requestsTo(FEATURES)).toHaveLength(1));
    for (const path of [LATENCY, ERRORS, FEATURES, CHATS, USERS]) {
      const query = api.requestsTo(path)[0]!.query;
      expect(query.get('from')).toBe('2025-06-01T00:00:00.000Z');
      expect(query.get('to')).toBe('2025-06-03T00:00:00.000Z');
    }
    expect(api.requestsTo('/api/metrics/gemini-usage')[0]!.query.get('hours')).toBe('48');
  });

  it('checks a custom range before applying it', async () => {
    serveMetrics();
    renderMetricsAt('/metrics?range=7d');
    await userEvent.selectOptions(screen.getByLabelText('Time range'), 'custom');
    const form = screen.getByRole('form', { name: 'Custom range' });
    const from = within(form).getByLabelText('From');
    const to = within(form).getByLabelText('To');

    await userEvent.clear(from);
    await userEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(await within(form).findByText('Enter a start date and time')).toBeInTheDocument();
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(search().get('range')).toBe('7d');

    await userEvent.type(from, '2025-06-03T00:00');
    await userEvent.clear(to);
    await userEvent.type(to, '2025-06-01T00:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(await within(form).findByText('The start must be before the end')).toBeInTheDocument();
    expect(within(form).queryByText('Enter a start date and time')).not.toBeInTheDocument();
    expect(from).not.toHaveAttribute('aria-invalid');

    await userEvent.clear(from);
    await userEvent.type(from, '2025-01-01T00:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(await within(form).findByText('A range spans at most 92 days')).toBeInTheDocument();
    expect(search().get('range')).toBe('7d');

    await userEvent.clear(from);
    await userEvent.type(from, '2025-05-30T06:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(search().get('range')).toBe('custom'));
    expect(search().get('from')).toBe(new Date('2025-05-30T06:00').toISOString());
    expect(search().get('to')).toBe(new Date('2025-06-01T00:00').toISOString());
  });

  it('shows each panel’s figures: percentiles, error rate, features, and ids in full with the rest as other', async () => {
    serveMetrics();
    renderMetricsAt('/metrics');

    const latency = await screen.findByRole('table', { name: 'Latency by model' });
    const pro = within(latency).getByRole('row', { name: /gemini \/ gemini-1\.5-pro/ });
    expect(pro).toHaveTextContent('800 ms');
    expect(pro).toHaveTextContent('1.45 s');
    expect(
      await within(region('Latency')).findByRole(
        'img',
        { name: /p95 latency per hour by model/ },
        // The chart's code (recharts) is loaded lazily, which takes longer than a render.
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();

    const errors = await screen.findByRole('table', { name: 'Error rate by model' });
    expect(within(errors).getByRole('row', { name: /gemini-1\.5-pro/ })).toHaveTextContent('25%');
    expect(screen.getByRole('table', { name: 'Errors by type' })).toHaveTextContent('rate_limited');

    const features = await screen.findByRole('table', { name: 'Usage by feature' });
    expect(within(features).getByRole('row', { name: /digest/ })).toHaveTextContent('75%');
    expect(within(features).getByRole('row', { name: /No feature/ })).toHaveTextContent('25%');

    const chats = await screen.findByRole('table', { name: 'Top chats' });
    expect(within(chats).getByText('-1001234567890123')).toBeInTheDocument();
    expect(within(chats).getByRole('row', { name: /Other chats/ })).toHaveTextContent('1');
    const users = await screen.findByRole('table', { name: 'Top users' });
    expect(within(users).getByText('987654321')).toBeInTheDocument();
    // No user beyond the listed ones: no "other" row.
    expect(within(users).queryByText('Other users')).not.toBeInTheDocument();
  });

  it('copies an id with the keyboard and confirms it', async () => {
    serveMetrics();
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    renderMetricsAt('/metrics');

    const chats = await screen.findByRole('table', { name: 'Top chats' });
    const copy = within(chats).getByRole('button', { name: 'Copy chat id -1001234567890123' });
    copy.focus();
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledWith('-1001234567890123');
    await waitFor(() => expect(within(chats).getByRole('status')).toHaveTextContent('Copied'));
  });

  it('says so when the clipboard is not available', async () => {
    serveMetrics();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderMetricsAt('/metrics');
    const users = await screen.findByRole('table', { name: 'Top users' });
    await userEvent.click(within(users).getByRole('button', { name: 'Copy user id 987654321' }));
    await waitFor(() => expect(within(users).getByRole('status')).toHaveTextContent('Copy not available'));
  });

  it('shows the empty state of each panel in words', async () => {
    const empty = { from: '2025-06-01T00:00:00.000Z', to: '2025-06-02T00:00:00.000Z' };
    const spend = { requests: 0, tokens: 0, cost_usd: 0 };
    const days = { from_day: '2025-06-01', to_day: '2025-06-01', other: spend, total: spend };
    serveMetrics({
      [LATENCY]: jsonResponse({ ...empty, interval: 'hour', models: [] }),
      [ERRORS]: jsonResponse({ ...empty, models: [], error_types: [], breakdown: [] }),
      [FEATURES]: jsonResponse({ ...empty, features: [] }),
      [CHATS]: jsonResponse({ ...days, chats: [] }),
      [USERS]: jsonResponse({ ...days, users: [] }),
    });
    renderMetricsAt('/metrics');

    expect(await within(region('Latency')).findByText('No LLM calls in this range.')).toBeInTheDocument();
    expect(await within(region('Errors')).findByText('No LLM calls in this range.')).toBeInTheDocument();
    expect(
      await within(region('Cost by feature')).findByText('No LLM calls in this range.'),
    ).toBeInTheDocument();
    expect(await within(region('Top chats')).findByText('No chats in this range.')).toBeInTheDocument();
    expect(await within(region('Top users')).findByText('No users in this range.')).toBeInTheDocument();
  });

  it('says when calls succeeded but none failed', async () => {
    serveMetrics({
      [ERRORS]: jsonResponse({
        ...answers[ERRORS],
        models: [
          { provider: 'gemini', model: 'gemini-1.5-pro', requests: 4, failed_requests: 0, error_rate: 0 },
        ],
        error_types: [],
        breakdown: [],
      }),
    });
    renderMetricsAt('/metrics');
    const errors = region('Errors');
    expect(await within(errors).findByText('No errors in this range.')).toBeInTheDocument();
    expect(within(errors).getByRole('table', { name: 'Error rate by model' })).toHaveTextContent('0%');
  });

  it('shows loading, then the error state with Retry, for each panel', async () => {
    const never = () => new Promise<Response>(() => {});
    serveMetrics({ [LATENCY]: never, [ERRORS]: never, [FEATURES]: never, [CHATS]: never, [USERS]: never });
    const { unmount } = renderMetricsAt('/metrics');
    for (const name of ['Latency', 'Errors', 'Cost by feature', 'Top chats', 'Top users'])
      expect(within(region(name)).getByRole('status', { name: `Loading ${name}` })).toBeInTheDocument();
    unmount();

    const api = serveMetrics({
      [LATENCY]: failWith(500),
      [ERRORS]: failWith(404),
      [FEATURES]: jsonResponse({ features: 'nope' }),
      [CHATS]: failWith(500),
      [USERS]: failWith(500),
    });
    renderMetricsAt('/metrics');
    expect(await within(region('Latency')).findByRole('alert')).toHaveTextContent('Failed to load data');
    expect(await within(region('Errors')).findByRole('alert')).toHaveTextContent('Service not available');
    expect(await within(region('Cost by feature')).findByRole('alert')).toHaveTextContent(
      'Failed to load data',
    );
    expect(await within(region('Top chats')).findByRole('alert')).toHaveTextContent('Failed to load data');

    api.route({ [`GET ${USERS}`]: jsonResponse(answers[USERS]) });
    await userEvent.click(
      within(await within(region('Top users')).findByRole('alert')).getByRole('button', { name: 'Retry' }),
    );
    expect(await screen.findByRole('table', { name: 'Top users' })).toHaveTextContent('987654321');
  });

  it('asks every panel again at the chosen interval, and not while the tab is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serveMetrics();
    renderMetricsAt('/metrics?refresh=10s');
    await waitFor(() => expect(api.requestsTo(USERS)).toHaveLength(1));
    await waitFor(() => expect(api.requestsTo('/api/metrics/gemini-usage')).toHaveLength(1));

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    for (const path of [
      LATENCY,
      ERRORS,
      FEATURES,
      CHATS,
      USERS,
      '/api/metrics/gemini-usage',
      '/api/metrics/llm-usage',
    ])
      await waitFor(() => expect(api.requestsTo(path)).toHaveLength(2));

    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(api.requestsTo(LATENCY)).toHaveLength(2);
    hidden.mockRestore();
  });

  it('does not ask again by itself when auto-refresh is off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serveMetrics();
    renderMetricsAt('/metrics');
    await waitFor(() => expect(api.requestsTo(LATENCY)).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    expect(api.requestsTo(LATENCY)).toHaveLength(1);
  });
});
