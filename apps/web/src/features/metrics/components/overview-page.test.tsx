import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import {
  answers,
  failWith,
  serveEveryMetric,
  serveMetrics,
  signInAs,
  stubLayout,
} from '../test/metrics-fixtures';
import { OverviewPage } from './overview-page';

const card = (name: string) => screen.getByRole('region', { name });

describe('OverviewPage', () => {
  beforeEach(() => {
    stubLayout();
    signInAs(['metrics:read']);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    useAuthStore.getState().clear();
  });

  it('shows each panel loading first', () => {
    serveEveryMetric(new Promise(() => {}));
    renderWithProviders(<OverviewPage />, { path: '/overview' });
    expect(screen.getByRole('heading', { level: 1, name: 'System Overview' })).toBeInTheDocument();
    for (const name of ['System Status', 'Market Data', 'Cache Performance', 'LLM Usage', 'Bot Health']) {
      expect(screen.getByRole('status', { name: `Loading ${name}` })).toBeInTheDocument();
    }
  });

  it('shows each figure, and one verdict for the whole system', async () => {
    serveMetrics();
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    // binance succeeds 75 % of the time: the integrations fail, so the system has issues.
    expect(await screen.findByText('Issues detected')).toBeInTheDocument();
    const status = within(card('System Status'));
    expect(status.getAllByText('Operational')).toHaveLength(3);
    expect(status.getByText('Issues')).toBeInTheDocument();

    const bot = within(card('Bot Health'));
    expect(bot.getByText('Operational')).toBeInTheDocument();
    expect(bot.getByText('Healthy')).toBeInTheDocument();
    expect(bot.getByText('7 hours')).toBeInTheDocument();
    expect(bot.getByText('daily-digest')).toBeInTheDocument();

    expect(within(card('Market Data')).getByText('Live')).toBeInTheDocument();

    expect(card('Cache Performance')).toHaveTextContent('90% hit rate');
    const cache = within(card('Cache Performance'));
    expect(cache.getByText('Good')).toBeInTheDocument();
    expect(cache.getByText('Speed boost').nextSibling).toHaveTextContent('90%');

    const llm = within(card('LLM Usage'));
    expect(llm.getByText((2500).toLocaleString())).toBeInTheDocument();
    // The chart's code (recharts) is loaded lazily, which takes longer than a render on a busy machine.
    expect(
      await llm.findByRole(
        'img',
        { name: /Tokens per day over the last 7 days for gemini/ },
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
  });

  it('asks for LLM usage again every minute, as the other panels poll, and shows its new figures', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const usage = answers['/api/metrics/llm-usage'];
    const api = serveMetrics({
      '/api/metrics/llm-usage': [
        jsonResponse(usage),
        jsonResponse({ ...usage, totals: { ...usage.totals, tokens: 4200 } }),
      ],
    });
    renderWithProviders(<OverviewPage />, { path: '/overview' });
    const llm = within(card('LLM Usage'));
    expect(await llm.findByText((2500).toLocaleString())).toBeInTheDocument();
    expect(api.requestsTo('/api/metrics/llm-usage')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(59_000));
    expect(api.requestsTo('/api/metrics/llm-usage')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(api.requestsTo('/api/metrics/llm-usage')).toHaveLength(2));
    expect(await llm.findByText((4200).toLocaleString())).toBeInTheDocument();
  });

  it('says what is wrong with an unhealthy bot and a stale feed', async () => {
    serveMetrics({
      '/api/metrics/bot-health': jsonResponse({ ...answers['/api/metrics/bot-health'], error_count_24h: 12 }),
      '/api/metrics/market-data': jsonResponse({
        ...answers['/api/metrics/market-data'],
        data_freshness: 'stale (12 min behind)',
      }),
      '/api/metrics/cache': jsonResponse({ ...answers['/api/metrics/cache'], hit_rate: 0.5 }),
    });
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    const bot = within(card('Bot Health'));
    expect(await bot.findAllByText('Issues')).toHaveLength(2);
    expect(bot.getByText('12 errors in the last 24 hours')).toBeInTheDocument();
    expect(within(card('Market Data')).getByText('stale (12 min behind)')).toBeInTheDocument();
    expect(within(card('Cache Performance')).getByText('Low hit rate')).toBeInTheDocument();
    expect(screen.getByText('Issues detected')).toBeInTheDocument();
  });

  it("shows the panels' error texts: 'Service not available' for a 404, 'Failed to load data' otherwise", async () => {
    serveMetrics({ '/api/metrics/bot-health': failWith(404), '/api/metrics/market-data': failWith(500) });
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    const bot = within(card('Bot Health'));
    expect(await bot.findByRole('alert')).toHaveTextContent('Service not available');
    expect(bot.getByRole('alert')).toHaveTextContent('No data');
    expect(bot.getByRole('alert')).toHaveTextContent('Unable to load metrics');

    const market = within(card('Market Data')).getByRole('alert');
    expect(market).toHaveTextContent('Failed to load data');
    expect(market).toHaveTextContent('No data available');
    expect(market).toHaveTextContent('Unable to load metrics');
    expect(screen.getByText('Issues detected')).toBeInTheDocument();
  });

  it('says so when nothing has been reported yet', async () => {
    serveMetrics({
      '/api/metrics/market-data': jsonResponse({
        data_freshness: 'no data',
        websocket_status: 'unknown',
        last_candle_time: null,
        missing_intervals: 0,
      }),
      '/api/metrics/cache': jsonResponse({ ...answers['/api/metrics/cache'], last_updated: null }),
      '/api/metrics/llm-usage': jsonResponse({
        daily_usage: [],
        totals: { tokens: 0, cost: 0, requests: 0 },
      }),
    });
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    expect(await within(card('LLM Usage')).findByText('No data available')).toBeInTheDocument();
    expect(within(card('Market Data')).getByText('No data available')).toBeInTheDocument();
    expect(within(card('Cache Performance')).getByText('No data available')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('Issues detected')).toBeInTheDocument();
  });

  it("shows 'Error loading dashboard' when no call succeeds", async () => {
    serveEveryMetric(jsonResponse({ detail: 'You need the metrics:read permission' }, 403));
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error loading dashboard');
    expect(alert).toHaveTextContent('You need the metrics:read permission');
    expect(screen.queryByRole('region', { name: 'Bot Health' })).not.toBeInTheDocument();
  });
});
