import type { LlmCall, LlmCalls } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { renderMetricsAt, search } from '../test/render-metrics-at';
import { serveMetrics, signInAs, stubLayout } from '../test/metrics-fixtures';

const CALLS = '/api/metrics/llm/calls';

const call = (id: number, fields: Partial<LlmCall> = {}): LlmCall => ({
  id: String(id),
  ts: new Date(Date.UTC(2025, 5, 1, 12, 60 - id)).toISOString(),
  provider: 'openai',
  model: 'gpt-4o-mini',
  feature: 'reply',
  chat_id: '-1001',
  user_id: '42',
  input_tokens: 1200,
  output_tokens: 300,
  usage_known: true,
  cost_usd: 0.00036,
  cost_source: 'priced',
  latency_ms: 812.4,
  cached: false,
  success: true,
  error_type: null,
  ...fields,
});

const page = (calls: LlmCall[], next: string | null, total = 3): LlmCalls => ({
  calls,
  next_cursor: next,
  total,
  total_is_lower_bound: false,
  searched_to: null,
  from: '2025-06-01T00:00:00.000Z',
  to: '2025-06-02T00:00:00.000Z',
});

describe('the Calls tab', () => {
  beforeEach(() => {
    stubLayout();
    signInAs(['metrics:read']);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    useAuthStore.getState().clear();
  });

  it('lists the calls of the URL’s filters newest first, with the count, and pages on', async () => {
    const api = serveMetrics();
    api.route({
      [`GET ${CALLS}`]: (request) =>
        jsonResponse(
          request.query.get('cursor') === 'next'
            ? page([call(3)], null)
            : page(
                [
                  call(1),
                  call(2, {
                    success: false,
                    error_type: 'rate_limited',
                    cost_source: 'unpriced',
                    cost_usd: 0,
                    usage_known: false,
                    input_tokens: 0,
                    output_tokens: 0,
                  }),
                ],
                'next',
              ),
        ),
    });
    renderMetricsAt('/metrics?tab=calls&chat_id=-1001&failed=true');

    const table = await screen.findByRole('table', { name: 'LLM calls' });
    const [request] = api.requestsTo(CALLS);
    expect(request!.query.get('chat_id')).toBe('-1001');
    expect(request!.query.get('failed')).toBe('true');
    expect(request!.query.get('from')).toBeTruthy();
    expect(screen.getByText('3 calls, newest first')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV of calls' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Active filters' })).toHaveTextContent('Chat: -1001');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('gpt-4o-mini');
    expect(rows[0]).toHaveTextContent((1200).toLocaleString());
    expect(rows[0]).toHaveTextContent('812 ms');
    expect(rows[1]).toHaveTextContent('rate_limited');
    expect(rows[1]).toHaveTextContent('Unpriced');
    expect(rows[1]).toHaveTextContent('Unknown');
    expect(within(rows[0]!).getByRole('link')).toHaveAttribute('href', '/metrics/calls/1');

    await userEvent.click(screen.getByRole('button', { name: 'Show More Calls' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(api.requestsTo(CALLS).at(-1)?.query.get('cursor')).toBe('next');
    expect(screen.queryByRole('button', { name: 'Show More Calls' })).not.toBeInTheDocument();
  });

  it('says how far back a page searched when few calls match, and searches on with Show More', async () => {
    const api = serveMetrics();
    api.route({
      [`GET ${CALLS}`]: (request) =>
        jsonResponse(
          request.query.get('cursor') === 'older'
            ? page([call(4)], null, 1)
            : {
                ...page([], 'older', 0),
                total_is_lower_bound: true,
                searched_to: '2025-06-01T09:30:00.000Z',
              },
        ),
    });
    renderMetricsAt('/metrics?tab=calls&min_latency_ms=5000');

    expect(await screen.findByText(/^Searched back to .*few calls match these filters/)).toBeInTheDocument();
    expect(screen.getByText('Newest first')).toBeInTheDocument();
    expect(screen.queryByText('No calls match these filters in this range.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show More Calls' }));
    expect(await screen.findByRole('table', { name: 'LLM calls' })).toBeInTheDocument();
    expect(screen.queryByText(/^Searched back to/)).not.toBeInTheDocument();
  });

  it('writes the filters to the URL, refuses what the API would, and removes one by its chip', async () => {
    const api = serveMetrics();
    api.route({ [`GET ${CALLS}`]: () => jsonResponse(page([], null, 0)) });
    renderMetricsAt('/metrics?tab=calls');
    expect(await screen.findByText('No calls match these filters in this range.')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Call filters' });
    await userEvent.type(within(form).getByLabelText('Chat'), 'my chat');
    await userEvent.type(within(form).getByLabelText('Model'), 'gpt-4o');
    await userEvent.click(within(form).getByRole('button', { name: 'Apply Filters' }));
    expect(within(form).getByText('Must be a Telegram id such as -1001234567890')).toBeInTheDocument();
    expect(search().get('model')).toBeNull();

    await userEvent.clear(within(form).getByLabelText('Chat'));
    await userEvent.type(within(form).getByLabelText('Chat'), '-1002');
    await userEvent.selectOptions(within(form).getByLabelText('Outcome'), 'Failed');
    await userEvent.click(within(form).getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => expect(search().get('chat_id')).toBe('-1002'));
    expect(search().get('model')).toBe('gpt-4o');
    expect(search().get('failed')).toBe('true');
    await waitFor(() => expect(api.requestsTo(CALLS).at(-1)?.query.get('model')).toBe('gpt-4o'));

    await userEvent.click(screen.getByRole('button', { name: 'Remove filter Model: gpt-4o' }));
    await waitFor(() => expect(search().get('model')).toBeNull());
    expect(search().get('chat_id')).toBe('-1002');
  });

  it('opens from a figure: a top chat, an error type, a model or a feature links to its calls over the range', async () => {
    serveMetrics();
    renderMetricsAt('/metrics?range=7d');
    const chat = await screen.findByRole('link', { name: 'Calls of chat -1001234567890123' });
    expect(new URLSearchParams(chat.getAttribute('href')!.split('?')[1])).toEqual(
      new URLSearchParams({ tab: 'calls', range: '7d', chat_id: '-1001234567890123' }),
    );
    expect(await screen.findByRole('link', { name: 'Calls of error rate_limited' })).toHaveAttribute(
      'href',
      '/metrics?tab=calls&range=7d&error_type=rate_limited',
    );
    // The latency chart's points open a model's calls of their hour; its table does the same by keyboard.
    const latency = screen.getByRole('region', { name: 'Latency' });
    expect(await within(latency).findByRole('link', { name: /^Calls of / })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/metrics\?tab=calls&range=7d&provider=\w+&model=/),
    );
    const errors = screen.getByRole('region', { name: 'Errors' });
    expect(within(errors).getByRole('link', { name: 'Calls of gemini / gemini-1.5-pro' })).toHaveAttribute(
      'href',
      '/metrics?tab=calls&range=7d&provider=gemini&model=gemini-1.5-pro',
    );
  });
});
