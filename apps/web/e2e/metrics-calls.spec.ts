import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';

// The calls behind the figures (docs/operators/console-guide.md, "Calls"): calls a bot reported are listed on
// the Calls tab, narrowed by a filter, and one opens on its own page. The calls happened 60 days ago, on a
// day of their own beyond every window the other Metrics specs read, under a model of this run.
const run = unique('calls');
const DAY = 86_400_000;
const day = Math.floor((Date.now() - 60 * DAY) / DAY) * DAY;
const model = `model-${run}`;
const chat = `-100${String(Date.now()).slice(-12)}3`;

async function ingestCalls(request: APIRequestContext) {
  const key = await request.post('/api/admin/api-keys', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { name: run, scopes: ['ingest:write'] },
  });
  expect(key.status()).toBe(201);
  const call = (hour: number, fields: Record<string, unknown> = {}) => ({
    type: 'llm_call',
    id: `${run}-${hour}`,
    ts: new Date(day + hour * 3_600_000).toISOString(),
    provider: 'openai',
    model,
    input_tokens: 1200,
    output_tokens: 300,
    cost_usd: 0.002,
    latency_ms: 900,
    cached: false,
    success: true,
    chat_id: chat,
    user_id: '42',
    feature: 'reply',
    ...fields,
  });
  const events = [call(9), call(10, { success: false, error_type: 'rate_limited' }), call(11)];
  const response = await request.post('/api/ingest/events', {
    headers: { authorization: `Bearer ${((await key.json()) as { key: string }).key}` },
    data: { events },
  });
  expect(await response.json()).toMatchObject({ accepted: events.length, rejected: [] });
}

test('the calls behind the figures: listed, filtered, and one opened on its own page', async ({
  page,
  request,
}) => {
  await ingestCalls(request);
  await signIn(page);
  const range = new URLSearchParams({
    tab: 'calls',
    range: 'custom',
    from: new Date(day).toISOString(),
    to: new Date(day + DAY).toISOString(),
    model,
  });
  await page.goto(`/admin/metrics?${range.toString()}`);

  const calls = page.getByRole('table', { name: 'LLM calls' });
  await expect(calls.getByRole('row')).toHaveCount(4);
  await expect(page.getByText('3 calls, newest first')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText(`Model: ${model}`);

  const filters = page.getByRole('form', { name: 'Call filters' });
  await filters.getByLabel('Outcome').selectOption('Failed');
  await filters.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page).toHaveURL(/[?&]failed=true/);
  await expect(calls.getByRole('row')).toHaveCount(2);
  await expect(calls).toContainText('rate_limited');

  await calls.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/admin\/metrics\/calls\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'LLM Call' })).toBeVisible();
  await expect(page.getByText(`${run}-10`)).toBeVisible();
  await expect(page.getByText(run, { exact: true })).toBeVisible();
  await page.getByRole('link', { name: chat }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]chat_id=${chat}`));
  await expect(page.getByRole('table', { name: 'LLM calls' }).getByRole('row')).toHaveCount(4);
});
