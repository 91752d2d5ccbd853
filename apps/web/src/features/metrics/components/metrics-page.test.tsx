import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { answers, failWith, serveMetrics, signInAs, stubLayout } from '../test/metrics-fixtures';
import { MetricsPage } from './metrics-page';

const GEMINI = '/api/metrics/gemini-usage';
const LLM = '/api/metrics/llm-usage';
const CHANGES = '/api/metrics/changes';
const DAY_MS = 86_400_000;
const region = (name: string) => screen.getByRole('region', { name });
/** How long a test waits for a lazily loaded chart to appear. */
const CHART_CODE_MS = 5_000;

describe('MetricsPage', () => {
  beforeEach(() => {
    stubLayout();
    signInAs(['metrics:read', 'budgets:write']);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    useAuthStore.getState().clear();
  });

  it('opens on LLM Usage: Gemini models by label, and a window of 168 hours on request', async () => {
    const api = serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });

    expect(screen.getByRole('heading', { level: 1, name: 'Metrics & Analytics' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'LLM Usage', selected: true })).toBeInTheDocument();
    const models = await screen.findByRole('table', { name: 'Gemini models' });
    expect(within(models).getByText('Gemini Pro')).toBeInTheDocument();
    expect(within(models).getByText('Gemini Vision')).toBeInTheDocument();
    // The first test loads the charts' code (recharts, lazily), which takes longer than a render.
    expect(
      await screen.findByRole(
        'img',
        { name: /Gemini tokens per hour over the last 24 hours/ },
        { timeout: CHART_CODE_MS },
      ),
    ).toBeInTheDocument();
    expect(within(region('LLM Usage')).getByText((2500).toLocaleString())).toBeInTheDocument();

    const gemini = region('Gemini Usage');
    await userEvent.click(within(gemini).getByRole('radio', { name: '7 days' }));
    await waitFor(() => expect(api.requestsTo(GEMINI).at(-1)?.query.get('hours')).toBe('168'));
    expect(api.requestsTo(GEMINI).at(-1)?.query.has('_t')).toBe(true);
    expect(await within(gemini).findByText('Last 7 days')).toBeInTheDocument();
  });

  it('says how many calls it could not price, and where to price them', async () => {
    serveMetrics({ [LLM]: jsonResponse({ ...answers[LLM], unpriced_requests: 2 }) });
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    const llm = region('LLM Usage');
    expect(
      await within(llm).findByText(/2 calls without a price or token usage: the cost leaves them out/),
    ).toBeInTheDocument();
    expect(within(llm).getByRole('link', { name: 'See Model Prices' })).toHaveAttribute(
      'href',
      '/metrics?tab=token-budgets',
    );
  });

  it('shows LLM usage for a week, and for 30 days on request', async () => {
    const api = serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });

    const llm = region('LLM Usage');
    expect(within(llm).getByText('Last 7 days')).toBeInTheDocument();
    expect(within(llm).getByRole('radio', { name: '7 days' })).toHaveAttribute('aria-checked', 'true');
    await waitFor(() => expect(api.requestsTo(LLM).at(-1)?.query.get('days')).toBe('7'));

    await userEvent.click(within(llm).getByRole('radio', { name: '30 days' }));
    await waitFor(() => expect(api.requestsTo(LLM).at(-1)?.query.get('days')).toBe('30'));
    expect(await within(llm).findByText('Last 30 days')).toBeInTheDocument();
  });

  it('marks the changes of each chart’s range on the usage and latency charts, and offers each panel’s export', async () => {
    const api = serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });

    const flag = { name: /^Change: Updated personalities item 'Lumi' \(content\), by admin/ };
    const llm = region('LLM Usage');
    expect(await within(llm).findByRole('button', flag, { timeout: CHART_CODE_MS })).toBeInTheDocument();
    expect(
      await within(region('Latency')).findByRole('button', flag, { timeout: CHART_CODE_MS }),
    ).toBeInTheDocument();
    // The usage chart asks for the changes of its answer's days (whole days in LUMI_TIMEZONE), the
    // latency chart for the picker's range.
    const asked = () => api.requestsTo(CHANGES).map(({ query }) => [query.get('from'), query.get('to')]);
    expect(asked()).toContainEqual(['2025-05-26T00:00:00.000Z', '2025-06-02T00:00:00.000Z']);
    const spans = asked().map(([from, to]) => Date.parse(to!) - Date.parse(from!));
    expect(spans).toContain(DAY_MS);

    expect(within(llm).getByRole('button', { name: 'Export CSV of LLM usage' })).toBeInTheDocument();
    expect(
      within(region('Top chats')).getByRole('button', { name: 'Export CSV of top chats' }),
    ).toBeInTheDocument();
    expect(
      within(region('Top users')).getByRole('button', { name: 'Export CSV of top users' }),
    ).toBeInTheDocument();
  });

  it('asks again twice, 3 s apart, before saying Gemini metrics are not available', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serveMetrics({ [GEMINI]: failWith(404) });
    renderWithProviders(<MetricsPage />, { path: '/metrics' });

    await waitFor(() => expect(api.requestsTo(GEMINI)).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(2_900));
    expect(api.requestsTo(GEMINI)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(api.requestsTo(GEMINI)).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    await waitFor(() => expect(api.requestsTo(GEMINI)).toHaveLength(3));

    const alert = await within(region('Gemini Usage')).findByRole('alert');
    expect(alert).toHaveTextContent('Gemini metrics not available');
    expect(alert).toHaveTextContent('No data available');
    expect(alert).toHaveTextContent('Unable to load metrics');
  });

  it('does not ask again after a 403', async () => {
    const api = serveMetrics({ [GEMINI]: failWith(403) });
    renderWithProviders(<MetricsPage />, { path: '/metrics' });

    expect(await within(region('Gemini Usage')).findByRole('alert')).toHaveTextContent('Failed to load data');
    expect(api.requestsTo(GEMINI)).toHaveLength(1);
  });

  it('shows budgets with status and a capped usage bar, and edits one', async () => {
    const api = serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Token Budgets' }));

    const gemini = await screen.findByRole('listitem', { name: 'gemini budget' });
    expect(gemini).toHaveTextContent('Active');
    expect(gemini).toHaveTextContent('Critical');
    expect(within(gemini).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '85');
    const openai = screen.getByRole('listitem', { name: 'openai budget' });
    expect(openai).toHaveTextContent('Inactive');
    expect(openai).toHaveTextContent('Limit reached');
    expect(within(openai).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    const prices = await screen.findByRole('table', { name: 'Model prices' });
    expect(prices).toHaveTextContent('gemini-1.5-pro');
    // Where each price comes from, and how many calls could not be priced.
    const catalogued = within(prices).getByRole('row', { name: /gpt-4o-mini/ });
    expect(catalogued).toHaveTextContent('Catalogue genai-prices 0.1.8');
    const unpriced = within(prices).getByRole('row', { name: /in-house-llm/ });
    expect(unpriced).toHaveTextContent('No price');
    expect(unpriced).toHaveTextContent('3');
    await userEvent.click(within(catalogued).getByRole('button', { name: 'Override for gpt-4o-mini' }));
    const override = screen.getByRole('dialog', { name: 'Edit Price: gpt-4o-mini' });
    expect(within(override).getByLabelText('Input price (USD per million tokens)')).toHaveValue(0.15);
    await userEvent.click(within(override).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(unpriced).getByRole('button', { name: 'Set Price for in-house-llm' }));
    const set = screen.getByRole('dialog', { name: 'Edit Price: in-house-llm' });
    expect(within(set).getByLabelText('Input price (USD per million tokens)')).toHaveValue(null);
    await userEvent.click(within(set).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(within(gemini).getByRole('button', { name: 'Edit gemini budget' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Budget: gemini' });
    const tokens = within(dialog).getByLabelText('Daily token limit');
    await userEvent.clear(tokens);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Budget' }));
    expect(
      await within(dialog).findByText('Set a daily token limit, a daily cost limit or both'),
    ).toBeInTheDocument();

    await userEvent.type(tokens, '250000');
    api.route({ 'PUT /api/config/token-budgets/gemini': jsonResponse({}) });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Budget' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toasts()).toHaveTextContent('Budget for gemini saved');

    const put = api.requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/api/config/token-budgets/gemini');
    expect(put.body).toEqual({
      daily_token_limit: 250000,
      daily_cost_limit: null,
      is_active: true,
    });
  });

  it('says which field is missing on Add Budget, as every other form does', async () => {
    serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Token Budgets' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add Budget' }));

    const dialog = screen.getByRole('dialog', { name: 'Add Budget' });
    await userEvent.type(within(dialog).getByLabelText('Provider'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Budget' }));
    expect(await within(dialog).findByText('Provider is required')).toBeInTheDocument();
  });

  it('hides budget editing without budgets:write', async () => {
    signInAs(['metrics:read']);
    serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Token Budgets' }));

    expect(await screen.findByRole('listitem', { name: 'gemini budget' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Budget' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit gemini budget' })).not.toBeInTheDocument();
  });

  it('switches sections with the dropdown and rates each integration in words', async () => {
    serveMetrics();
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    await userEvent.selectOptions(screen.getByLabelText('Section'), 'integrations');

    const table = await screen.findByRole('table', { name: 'External services' });
    const binance = within(table).getByText('binance').closest('tr')!;
    expect(binance).toHaveTextContent('75% · Failing');
    expect(binance).toHaveTextContent('Error');
    expect(within(table).getByText('coingecko').closest('tr')).toHaveTextContent('100% · Healthy');
    expect(
      within(region('Integrations')).getByRole('button', { name: 'Export CSV of integrations' }),
    ).toBeInTheDocument();
  });

  it('shows the integrations error state on failure, never sample data', async () => {
    serveMetrics({ '/api/metrics/integrations': failWith(500) });
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Integrations' }));

    const alert = await within(region('Integrations')).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load data');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('treats an answer of another shape as a failure', async () => {
    serveMetrics({ '/api/metrics/integrations': jsonResponse({ data: 'nope' }) });
    renderWithProviders(<MetricsPage />, { path: '/metrics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Integrations' }));

    expect(await within(region('Integrations')).findByRole('alert')).toHaveTextContent('Failed to load data');
  });
});
