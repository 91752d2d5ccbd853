import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { startOwnServer } from './support/child-process';
import { adminToken, signIn, unique } from './support/fixtures';
import { PAGE_LOCALE, region } from './support/metric-figures';

/**
 * The spec runs on a server of its own: a chart's change markers list every configuration change, and the
 * specs running beside it change configuration on the shared server, so the newest change in a card would
 * not always be this spec's.
 */
const test = base.extend<object, { ownServer: string }>({
  ownServer: [
    async ({}, use) => {
      const server = await startOwnServer();
      await use(server.url);
      await server.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ ownServer }, use) => use(ownServer),
});

// Change markers and panel exports on the Metrics screen (docs/operators/metrics.md): a personality edited in the console
// shows as a marker on the usage and latency charts, whose card says who changed what and links to the item;
// the top chats and usage panels export what was ingested as CSV. The calls happened 50 days ago, on a day
// of their own, so the files' rows for them are these calls alone.
const run = unique('changes');
const DAY = 86_400_000;
const when = new Date(Math.floor((Date.now() - 50 * DAY) / DAY) * DAY + 12 * 3_600_000);
const names = {
  personality: `${run} persona`,
  model: `model-${run}`,
  feature: `reply-${run}`,
  chats: [`-100${String(Date.now()).slice(-12)}1`, `-100${String(Date.now()).slice(-12)}2`],
};

async function ingestCalls(request: APIRequestContext) {
  const key = await request.post('/api/admin/api-keys', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { name: run, scopes: ['ingest:write'] },
  });
  expect(key.status()).toBe(201);
  const call = (minute: number, chat: string, cost: number) => ({
    type: 'llm_call',
    ts: new Date(when.getTime() + minute * 60_000).toISOString(),
    provider: 'gemini',
    model: names.model,
    input_tokens: 1000,
    output_tokens: 200,
    cost_usd: cost,
    latency_ms: 500,
    cached: false,
    success: true,
    chat_id: chat,
    feature: names.feature,
  });
  // The first chat spends more, in two calls; the second in one.
  const events = [
    call(0, names.chats[0]!, 0.25),
    call(1, names.chats[0]!, 0.25),
    call(2, names.chats[1]!, 0.125),
  ];
  const response = await request.post('/api/ingest/events', {
    headers: { authorization: `Bearer ${((await key.json()) as { key: string }).key}` },
    data: { events },
  });
  expect(response.ok()).toBeTruthy();
  expect(await response.json()).toMatchObject({ accepted: events.length, rejected: [] });
}

async function createPersonality(request: APIRequestContext) {
  const response = await request.post('/api/admin/api/config/personalities', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { name: names.personality, content: 'Calm and precise', priority: 2, tags: ['tone'] },
  });
  expect(response.status()).toBe(201);
}

/** Edits the personality's priority through the console's Edit dialog, as an operator does. */
async function editPersonality(page: Page) {
  await page.goto('/admin/config?tab=personalities');
  const row = page.getByRole('row').filter({ has: page.getByText(names.personality, { exact: true }) });
  await row.getByRole('button', { name: `Edit ${names.personality}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${names.personality}` });
  await edit.getByLabel('Priority').fill('7');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
}

/** A CSV download's records, without its byte order mark, split into fields (no field here has quotes). */
async function downloadCsv(page: Page, button: ReturnType<Page['getByRole']>) {
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^lumi-[a-z-]+-\d{8}T\d{4}Z-\d{8}T\d{4}Z\.csv$/);
  const text = await readFile(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

const summary = `Updated personalities item '${names.personality}' (priority)`;

test.use(PAGE_LOCALE);

test.describe.serial('metrics change markers and exports', () => {
  test.beforeAll(async ({ request }) => {
    await ingestCalls(request);
    await createPersonality(request);
  });

  test('a personality edited in the console is marked on the usage and latency charts, with a link to it', async ({
    page,
  }) => {
    await signIn(page);
    await editPersonality(page);
    await page.goto('/admin/metrics?days=90&range=90d');

    // The usage chart's axis is days: the day's changes share one flag, the newest first in its card.
    const usage = region(page, 'LLM Usage');
    // A chart is drawn once it comes near the window (features/metrics/components/after-paint.tsx).
    await usage.scrollIntoViewIfNeeded();
    const dayFlag = usage.getByRole('button', { name: /^(Change: |\d+ changes, first: )/ }).last();
    await dayFlag.hover();
    const dayCard = page.getByRole('dialog', { name: /^(Change|\d+ changes)$/ });
    await expect(dayCard.getByText(summary, { exact: true })).toBeVisible();
    await expect(dayCard.getByRole('listitem').first()).toContainText(summary);
    await expect(dayCard.getByRole('listitem').first()).toContainText('admin');
    await page.mouse.move(0, 0);
    await expect(dayCard).toBeHidden();

    // The latency chart's axis is time: changes close together on it (the item's creation and the edit
    // here) share a flag, the newest first in its card, which the keyboard opens and enters.
    const latency = region(page, 'Latency');
    await latency.scrollIntoViewIfNeeded();
    const flag = latency.getByRole('button', { name: /^(Change: |\d+ changes, first: )/ }).last();
    await flag.focus();
    const card = page.getByRole('dialog', { name: /^(Change|\d+ changes)$/ });
    await expect(card.getByRole('listitem').first()).toContainText(summary);
    await expect(card.getByRole('listitem').first()).toContainText(/admin · \w{3} \d+, \d{4}/);
    await page.keyboard.press('Enter');
    const link = card.getByRole('link', { name: `Open ${names.personality}` }).first();
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/admin\/config\?tab=personalities&q=.+&history=\d+&revision=\d+$/);
    // The link opens the item's history at the revision the change made.
    const history = page.getByRole('dialog', { name: `History of ${names.personality}` });
    await expect(
      history.getByRole('heading', { name: /^Revision \d+ compared with the current version$/ }),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(history).toBeHidden();
    await expect(page.getByRole('tab', { name: 'Personalities' })).toHaveAttribute('aria-selected', 'true');
    const row = page.getByRole('row').filter({ has: page.getByText(names.personality, { exact: true }) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').nth(4)).toHaveText('7');
  });

  test('the top chats and usage panels export their rows as CSV', async ({ page }) => {
    await signIn(page);
    await page.goto('/admin/metrics?days=90&range=90d');

    const chats = await downloadCsv(
      page,
      region(page, 'Top chats').getByRole('button', { name: 'Export CSV of top chats' }),
    );
    expect(chats[0]).toEqual(['chat_id', 'requests', 'tokens', 'cost_usd']);
    const chatRows = chats.filter(([id]) => names.chats.includes(id!));
    expect(chatRows).toEqual([
      [names.chats[0], '2', '2400', '0.5'],
      [names.chats[1], '1', '1200', '0.125'],
    ]);

    const usage = await downloadCsv(
      page,
      region(page, 'LLM Usage').getByRole('button', { name: 'Export CSV of LLM usage' }),
    );
    expect(usage[0]).toEqual([
      'day',
      'provider',
      'model',
      'feature',
      'requests',
      'failed_requests',
      'input_tokens',
      'output_tokens',
      'cost_usd',
    ]);
    expect(usage.filter((record) => record[2] === names.model)).toEqual([
      [
        when.toISOString().slice(0, 10),
        'gemini',
        names.model,
        names.feature,
        '3',
        '0',
        '3000',
        '600',
        '0.625',
      ],
    ]);
  });
});
