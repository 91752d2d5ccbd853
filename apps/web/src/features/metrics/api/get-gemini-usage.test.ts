import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';
import {
  EmptyGeminiAnswerError,
  fetchGeminiUsage,
  geminiErrorMessage,
  shouldRetryGeminiUsage,
} from './get-gemini-usage';

const GEMINI = 'GET /api/metrics/gemini-usage';

describe('fetchGeminiUsage', () => {
  it('asks for the window with a cache-busting timestamp and no-cache headers', async () => {
    const api = fakeApi({
      [GEMINI]: jsonResponse({
        summary: { total_requests: 0, total_tokens: 0, total_cost: 0, models: {} },
        time_series: [],
        last_updated: null,
      }),
    });
    const before = Date.now();
    await fetchGeminiUsage(48);

    const [request] = api.requests;
    expect(request?.path).toBe('/api/metrics/gemini-usage');
    expect(request?.query.get('hours')).toBe('48');
    expect(Number(request?.query.get('_t'))).toBeGreaterThanOrEqual(before);
    expect(request?.headers).toMatchObject({ 'cache-control': 'no-cache', pragma: 'no-cache' });
  });

  it('treats an answer without a summary as empty', async () => {
    fakeApi({ [GEMINI]: jsonResponse({}) });
    await expect(fetchGeminiUsage(24)).rejects.toBeInstanceOf(EmptyGeminiAnswerError);
  });
});

describe('shouldRetryGeminiUsage', () => {
  it.each([
    { name: 'empty, first failure', count: 0, error: new EmptyGeminiAnswerError(), expected: true },
    { name: 'empty, second failure', count: 1, error: new EmptyGeminiAnswerError(), expected: true },
    { name: 'empty, after two retries', count: 2, error: new EmptyGeminiAnswerError(), expected: false },
    { name: '500', count: 0, error: new ApiError(500, 'Boom', undefined), expected: true },
    { name: '404', count: 1, error: new ApiError(404, 'Not Found', undefined), expected: true },
    { name: 'network', count: 0, error: new TypeError('Failed to fetch'), expected: true },
    { name: '401', count: 0, error: new ApiError(401, 'Unauthorized', undefined), expected: false },
    { name: '403', count: 0, error: new ApiError(403, 'Forbidden', undefined), expected: false },
  ])('$name: $expected', ({ count, error, expected }) => {
    expect(shouldRetryGeminiUsage(count, error)).toBe(expected);
  });
});

describe('geminiErrorMessage', () => {
  it.each([
    {
      name: '404',
      error: new ApiError(404, 'Not Found', undefined),
      expected: 'Gemini metrics not available',
    },
    { name: 'empty answer', error: new EmptyGeminiAnswerError(), expected: 'Gemini metrics not available' },
    { name: '500', error: new ApiError(500, 'Boom', undefined), expected: 'Failed to load data' },
  ])('$name: $expected', ({ error, expected }) => {
    expect(geminiErrorMessage(error)).toBe(expected);
  });
});
