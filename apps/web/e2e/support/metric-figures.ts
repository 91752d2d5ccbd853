// What the metric panels show, as a test expects it: the figures read straight from the API, and the
// panels' formats and words spelled out (src/features/metrics/lib/format-metrics.ts, thresholds.ts and
// src/lib/format.ts), so a spec compares a page with the server without hard-coding numbers.
import type {
  BotHealth,
  CacheMetrics,
  GeminiUsage,
  IntegrationMetrics,
  LlmUsage,
  MarketDataStatus,
  ModelPrice,
  TokenBudget,
} from '@lumi/contract';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** The locale and time zone the formats below use; open the pages with the same. */
export const PAGE_LOCALE = { locale: 'en-US', timezoneId: 'UTC' } as const;

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

export const count = (value: number) => whole.format(value);
export const percent = (value: number) => `${oneDecimal.format(value)}%`;
/** Money: 2 decimals, and below $1 as many as its first two significant digits need. */
export const usd = (value: number) => {
  const size = Math.abs(value);
  const digits = size === 0 || size >= 1 ? 2 : Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(size))));
  const format = {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: digits,
  };
  return new Intl.NumberFormat('en-US', format as Intl.NumberFormatOptions).format(value);
};
// ICU puts a narrow no-break space before AM/PM; the page's text is compared with whitespace collapsed.
/** A time as the console shows it: in the page's zone (UTC here), which it names. */
export const when = (iso: string) => `${dateTime.format(new Date(iso)).replace(/\s+/g, ' ')} UTC`;

/** The panel's names for Gemini models (spec: 'vision' is Gemini Vision, 'embedding' Text Embedding). */
export const geminiLabel = (model: string) =>
  /vision/i.test(model) ? 'Gemini Vision' : /embedding/i.test(model) ? 'Text Embedding' : 'Gemini Pro';

/** The budget bar's words: red above 80 %, yellow above 60 %. */
export function budgetWord(percentage: number): string {
  if (percentage >= 100) return 'Limit reached';
  return percentage > 80 ? 'Critical' : percentage > 60 ? 'High' : 'Normal';
}

/** An integration's success rate in words: above 99 % healthy, above 95 % degraded. */
export const rateWord = (rate: number) => (rate > 99 ? 'Healthy' : rate > 95 ? 'Degraded' : 'Failing');
export const LAST_STATUS = { success: 'Success', error: 'Error', other: 'Other' } as const;

export interface Figures {
  bot: BotHealth;
  market: MarketDataStatus;
  cache: CacheMetrics;
  llm: LlmUsage;
  gemini: GeminiUsage;
  integrations: IntegrationMetrics;
  budgets: TokenBudget[];
  prices: ModelPrice[];
}

/** What the panels read, straight from the API, with the windows the console asks for. */
export async function readFigures(request: APIRequestContext, token: string): Promise<Figures> {
  const get = async (url: string) => {
    const response = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status(), `GET ${url}`).toBe(200);
    return response.json();
  };
  const [bot, market, cache, llm, gemini, integrations, budgets, prices] = await Promise.all(
    [
      '/api/metrics/bot-health',
      '/api/metrics/market-data',
      '/api/metrics/cache',
      '/api/metrics/llm-usage?days=7',
      '/api/metrics/gemini-usage?hours=24',
      '/api/metrics/integrations',
      '/api/config/token-budgets',
      '/api/config/model-prices',
    ].map(get),
  );
  return { bot, market, cache, llm, gemini, integrations, budgets, prices };
}

/** When the newest event the server holds happened, as far as the panels show it. */
export function newestEvent(figures: Figures): number {
  const times = [
    figures.cache.last_updated,
    figures.gemini.last_updated,
    ...figures.integrations.data.map((service) => service.last_api_call),
  ];
  return Math.max(...times.filter((time) => time !== null).map((time) => Date.parse(time)));
}

export const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The value beside a label in a panel's figures (each figure is a term and its definition in a list). */
export const figure = (scope: Locator, label: string) =>
  scope
    .locator('dl > div')
    .filter({ has: scope.page().getByText(label, { exact: true }) })
    .locator('dd');
