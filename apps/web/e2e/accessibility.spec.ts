import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';

// Every screen and every section of one, in both themes, on a desktop and on a phone: axe-core must find
// no serious or critical violation (docs/benchmarks.md). The screens get content first, through the public API,
// so tables, cards and charts are checked as an operator sees them, not only their empty states.

const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;

const SCREENS = [
  '/admin/overview',
  '/admin/overview?days=30',
  '/admin/metrics',
  '/admin/metrics?hours=168',
  '/admin/metrics?range=7d&refresh=1m',
  '/admin/metrics?range=custom&from=2020-01-01T00:00:00.000Z&to=2020-01-02T00:00:00.000Z',
  '/admin/metrics?tab=token-budgets',
  '/admin/metrics?tab=integrations',
  '/admin/config',
  '/admin/messages',
  '/admin/alerts',
  '/admin/alerts?view=contact-points',
  '/admin/alerts?view=silences',
  '/admin/alerts?view=history',
  '/admin/limits',
  '/admin/limits?view=access',
  '/admin/limits?view=denials',
  '/admin/users',
  '/admin/admin',
  '/admin/admin?tab=api-keys',
  '/admin/profile',
];

async function seriousViolations(page: Page) {
  // Only the violations: collecting what passes (most of axe's work on the chart-heavy screens) is not needed.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * Everything on the screen drawn and loaded: a keyboard user's first Tab draws the charts and panels not yet
 * scrolled to (metrics/components/after-paint.tsx), and the charts of panels whose answers came meanwhile
 * are drawn once those have painted.
 */
async function drawEverything(page: Page) {
  const waiting = page.getByRole('img', { name: /scrolled into view$/ });
  await page.keyboard.press('Tab');
  await expect(waiting).toHaveCount(0);
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await expect(waiting).toHaveCount(0);
}

/** Telemetry with long names (the kind that broke mid-word on phones), a budget, a price, an item, a template. */
async function arrangeContent(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  const post = async (url: string, data: unknown, method: 'post' | 'put' = 'post') => {
    const response = await request[method](url, { headers, data });
    expect(response.ok(), `${url}: ${await response.text()}`).toBeTruthy();
    return response.json() as Promise<{ id: number; key: string }>;
  };
  const run = unique('a11y');
  const { key } = await post('/api/admin/api-keys', { name: run, scopes: ['ingest:write'] });
  const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
  // With the dimensions, so the latency, errors, feature and top chats and users panels have rows; a long
  // feature name and a failed call with its error type.
  const llm = (provider: string, model: string, daysAgo: number) => ({
    type: 'llm_call',
    ts: at(daysAgo * 86_400_000 + 60_000),
    provider,
    model,
    input_tokens: 1200,
    output_tokens: 300,
    cost_usd: 0.0042,
    latency_ms: 700 + daysAgo * 400,
    cached: false,
    success: daysAgo !== 1,
    chat_id: `-100123456789${daysAgo}`,
    user_id: `98765432${daysAgo}`,
    feature: daysAgo % 2 ? 'summarize-a-long-thread-for-the-morning-digest' : 'reply',
    ...(daysAgo === 1 ? { error_type: 'rate_limited_by_upstream_provider' } : {}),
  });
  const call = (service: string, status: 'success' | 'error') => ({
    type: 'integration_call',
    ts: at(60_000),
    service_name: service,
    status,
    latency_ms: 90,
  });
  const events = [
    llm('gemini', 'gemini-1.5-flash-accessibility-check', 0),
    llm('gemini', 'gemini-pro-vision', 1),
    llm('gemini', 'text-embedding-004', 2),
    llm(`anthropic-${run}`, 'claude-3-5-haiku', 3),
    call(`coingecko-${run}`, 'success'),
    call(`coingecko-${run}`, 'error'),
    call(`dexscreener-${run}`, 'success'),
    {
      type: 'heartbeat',
      ts: at(0),
      telegram_status: 'connected',
      started_at: at(3_600_000),
      active_locks: [],
    },
  ];
  const ingested = await request.post('/api/ingest/events', {
    headers: { authorization: `Bearer ${key}` },
    data: { events },
  });
  expect(ingested.ok()).toBeTruthy();
  await post(`/api/config/token-budgets/${run}`, { daily_token_limit: 1_000_000, daily_cost_limit: 2 });
  await post(
    '/api/config/model-prices/gemini-1.5-flash-accessibility-check',
    { input_usd_per_million: 0.075, output_usd_per_million: 0.3 },
    'put',
  );
  await post('/api/admin/api/config/personalities', {
    name: `${run} greeting`,
    content: { greeting: 'Good morning, traders' },
    tags: ['tone'],
  });
  const channel = await post('/api/v1/messaging/channels', {
    channel_name: `${run} Alerts`,
    chat_id: `@${unique('a11y_')}`,
  });
  await post('/api/v1/messaging/templates', {
    template_name: `${run} Price alert`,
    channel_id: channel.id,
    message_type: 'alert',
    template_content: 'Price of {{token_name}} moved',
  });
  // An alert rule that fires at once (today's LLM spend is above a cent's tenth), so the Overview banner,
  // the firing card and the history are checked too; a contact point of each type and a silence.
  const contactPoint = await post('/api/alerts/contact-points', {
    name: `${run} Ops chat`,
    type: 'telegram',
    channel_id: channel.id,
  });
  await post('/api/alerts/contact-points', {
    name: `${run} Pager`,
    type: 'webhook',
    url: `https://hooks.example.com/${run}/a-long-path-that-has-to-wrap-on-a-phone`,
  });
  const rule = await post('/api/alerts/rules', {
    name: `${run} LLM spend today`,
    condition: { type: 'llm_cost', usd: 0.001, window: 'day' },
    severity: 'critical',
    contact_point_ids: [contactPoint.id],
  });
  // A limit with a raise and a ban, on chats of this run only, so no other test's calls meet them.
  const chat = `-100${Date.now()}`;
  await post('/api/limits', {
    scope: 'chat',
    subject: chat,
    metric: 'cost_usd',
    window: 'day',
    amount: 5,
    mode: 'hard',
    raise_amount: 10,
    raise_until: new Date(Date.now() + 86_400_000).toISOString(),
    note: `${run}: a group that floods the bot with requests at the market open`,
  });
  await post('/api/limits/access-rules', {
    action: 'ban',
    subject_kind: 'chat',
    subject: `${chat}1`,
    reason:
      'Spam waves every few minutes, see https://tracker.example.com/browse/ABUSE-20261201-spam-waves-in-the-group',
  });
  await post('/api/alerts/silences', {
    kind: 'recurring',
    rule_id: rule.id,
    weekdays: ['sunday'],
    start_time: '02:00',
    duration_minutes: 60,
    timezone: 'Europe/Berlin',
    comment: 'Weekly maintenance of the LLM gateway',
  });
}

test.beforeAll(async ({ request }) => {
  await arrangeContent(request);
});

/**
 * The screens in PART_COUNT parts of four or five, a test each, so the workers share the sweep and each part
 * stays well inside its time on a slow machine.
 */
const PART_COUNT = 5;
const PARTS = Array.from({ length: PART_COUNT }, (_, part) =>
  SCREENS.filter((_, i) => i % PART_COUNT === part),
);
type Theme = 'light' | 'dark';

/**
 * The order a screen is checked in: loaded in the first theme, then switched to the other. The operating
 * system's setting switches the console's theme at once (lib/theme-store.ts), so one load of a screen is
 * checked in both; a screen loads in light on one size and in dark on the other, so every screen is also
 * checked as it first paints in each theme (public/first-load.js).
 */
function themeOrder(screen: number, size: string): [Theme, Theme] {
  return (screen + (size === 'phone' ? 1 : 0)) % 2 === 0 ? ['light', 'dark'] : ['dark', 'light'];
}

/** axe's serious violations on what the page shows in each theme, in `order`. */
async function violationsInEachTheme(page: Page, what: string, size: string, order: [Theme, Theme]) {
  for (const theme of order) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    // Colours that fade to the new theme (`transition-colors`) are checked once they got there.
    await expect
      .poll(() =>
        page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length),
      )
      .toBe(0);
    expect(await seriousViolations(page), `${what} (${size}, ${theme})`).toEqual([]);
  }
}

for (const [size, viewport] of Object.entries(SIZES)) {
  PARTS.forEach((screens, part) => {
    test(`no serious accessibility violations on any screen, light and dark (${size}, part ${part + 1} of ${PARTS.length})`, async ({
      page,
    }) => {
      test.setTimeout(150_000);
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/admin/login');
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      if (part === 0) await violationsInEachTheme(page, '/admin/login', size, ['light', 'dark']);

      await signIn(page);
      for (const path of screens) {
        const order = themeOrder(SCREENS.indexOf(path), size);
        await page.emulateMedia({ colorScheme: order[0] });
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await drawEverything(page);
        if (size === 'phone') {
          // Every screen fits a 375 px wide screen.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow, `${path} is wider than the phone`).toBeLessThanOrEqual(0);
          // A table's row is a card that clips what overflows it (components/ui/responsive-table.tsx), so a
          // value too long for its line must wrap inside it.
          const clipped = await page.evaluate(() =>
            [...document.querySelectorAll('main table tbody [role="row"]')]
              .filter((row) => row.scrollWidth > row.clientWidth + 1)
              .map((row) => row.textContent?.slice(0, 80)),
          );
          expect(clipped, `${path} has rows wider than their card`).toEqual([]);
          // Nor does a card's name run under the buttons in its corner.
          const covered = await page.evaluate(() =>
            [...document.querySelectorAll('main table tbody [role="row"]')].flatMap((row) => {
              const cells = [...row.children] as HTMLElement[];
              const corner = cells.find((cell) => getComputedStyle(cell).position === 'absolute');
              const name = cells[0];
              if (!corner || !name || name === corner) return [];
              const text = document.createRange();
              text.selectNodeContents(name);
              const a = corner.getBoundingClientRect();
              const overlaps = [...text.getClientRects()].some(
                (b) => b.left < a.right && a.left < b.right && b.top < a.bottom && a.top < b.bottom,
              );
              return overlaps ? [row.textContent?.slice(0, 80)] : [];
            }),
          );
          expect(covered, `${path} has names under their card's buttons`).toEqual([]);
        }
        await violationsInEachTheme(page, path, size, order);
      }
    });
  });
}
