import type { LlmUsage } from '@lumi/contract';
import { formatCount } from './format-metrics';

export interface LlmUsageRow {
  date: string;
  /** Tokens per provider on this day. */
  tokens: Record<string, number>;
}

export interface LlmUsageSeries {
  providers: string[];
  rows: LlmUsageRow[];
}

/**
 * One row per day with each provider's tokens, providers in the order the server sent them. The rows
 * start at the first day with any tokens: a range longer than the history would otherwise open with a
 * flat zero line; quiet days after it stay, they are part of the story.
 */
export function toLlmUsageSeries(usage: LlmUsage): LlmUsageSeries {
  const providers: string[] = [];
  const rows = new Map<string, LlmUsageRow>();
  for (const { date, provider, tokens_used } of usage.daily_usage) {
    if (!providers.includes(provider)) providers.push(provider);
    const row = rows.get(date) ?? { date, tokens: {} };
    row.tokens[provider] = (row.tokens[provider] ?? 0) + tokens_used;
    rows.set(date, row);
  }
  const sorted = [...rows.values()].sort((a, b) => a.date.localeCompare(b.date));
  const first = sorted.findIndex((row) => Object.values(row.tokens).some((tokens) => tokens > 0));
  return { providers, rows: first === -1 ? sorted : sorted.slice(first) };
}

/** True when the window holds no LLM call at all: the chart shows its empty state instead of flat lines. */
export function isLlmUsageEmpty(usage: LlmUsage): boolean {
  return usage.totals.requests === 0 && usage.daily_usage.every((day) => day.tokens_used === 0);
}

/** What a screen reader hears instead of the chart. */
export function llmUsageSummary(usage: LlmUsage, days: number): string {
  const { providers, rows } = toLlmUsageSeries(usage);
  const totalOf = (row: LlmUsageRow) => Object.values(row.tokens).reduce((sum, value) => sum + value, 0);
  const busiest = rows.reduce<LlmUsageRow | undefined>(
    (best, row) => (!best || totalOf(row) > totalOf(best) ? row : best),
    undefined,
  );
  const parts = [
    `Tokens per day over the last ${days} days for ${providers.join(', ')}`,
    `${formatCount(usage.totals.tokens)} tokens in total`,
  ];
  if (busiest) parts.push(`busiest day ${busiest.date} with ${formatCount(totalOf(busiest))} tokens`);
  return `${parts.join('; ')}.`;
}

/**
 * The chart's day (`YYYY-MM-DD`) an instant falls on, in the time zone whose days the chart counts
 * (LUMI_TIMEZONE, named by the usage answer), so a change marker sits on the day it was saved; null for a
 * time that does not parse.
 */
export function usageDayOf(at: string, timeZone: string): string | null {
  const time = new Date(at);
  if (Number.isNaN(time.getTime())) return null;
  return isoDate(timeZone).format(time);
}

/** en-CA writes a date as YYYY-MM-DD; one formatter per zone, since building one is slow. */
const isoDates = new Map<string, Intl.DateTimeFormat>();
function isoDate(timeZone: string): Intl.DateTimeFormat {
  let format = isoDates.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    isoDates.set(timeZone, format);
  }
  return format;
}
