import type { GeminiUsage } from '@lumi/contract';
import { formatCurrency } from '@/lib/format';
import { formatCount } from './format-metrics';
import { geminiModelLabel } from './thresholds';
import { dateTimeFormat } from '@/lib/intl';

/** Spec section 9: the Gemini panel's windows in hours. */
export type GeminiWindow = 24 | 48 | 168;

/** Each window in words: the picker's button and the span the panel names ("Last 7 days"), one wording. */
export const GEMINI_WINDOW_TEXT: Record<GeminiWindow, { button: string; span: string }> = {
  24: { button: '24 h', span: '24 hours' },
  48: { button: '48 h', span: '48 hours' },
  168: { button: '7 days', span: '7 days' },
};

/** Spec section 2: the 168-hour window shows day labels, the others hour labels. */
export function geminiLabelKind(hours: GeminiWindow): 'day' | 'hour' {
  return hours === 168 ? 'day' : 'hour';
}

const hourLabel = dateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayLabel = dateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
const fullLabel = dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The axis label of an hour of the series: its day in the week-long window, else its hour. */
export function geminiAxisLabel(timestamp: string, hours: GeminiWindow): string {
  const date = new Date(timestamp);
  return geminiLabelKind(hours) === 'day' ? dayLabel.format(date) : hourLabel.format(date);
}

/** The tooltip's label: the full date and hour, whatever the window. */
export function geminiTooltipLabel(timestamp: string): string {
  return fullLabel.format(new Date(timestamp));
}

/**
 * Where the axis puts its ticks in the week-long window: the first hour of each new local day, so every
 * whole day is labelled once (the partial day the window starts in is not). The shorter windows leave
 * tick placement to the chart.
 */
export function geminiDayTicks(series: GeminiUsage['time_series']): string[] {
  const ticks: string[] = [];
  let previousDay: string | undefined;
  for (const { timestamp } of series) {
    const day = new Date(timestamp).toDateString();
    if (previousDay !== undefined && day !== previousDay) ticks.push(timestamp);
    previousDay = day;
  }
  return ticks;
}

export interface GeminiModelRow {
  model: string;
  label: string;
  requests: number;
  tokens: number;
  cost: number;
}

/** The models of the window, busiest first, with their spec labels. */
export function geminiModelRows(usage: GeminiUsage): GeminiModelRow[] {
  return Object.entries(usage.summary.models)
    .map(([model, figures]) => ({
      model,
      label: geminiModelLabel(model),
      requests: figures.requests,
      tokens: figures.estimated_tokens,
      cost: figures.estimated_cost,
    }))
    .sort((a, b) => b.requests - a.requests || a.model.localeCompare(b.model));
}

/** Each model's share of the window's tokens, in percent (0 for all when there were no tokens). */
export function tokenShares(rows: ReadonlyArray<Pick<GeminiModelRow, 'tokens'>>): number[] {
  const total = rows.reduce((sum, row) => sum + row.tokens, 0);
  return rows.map((row) => (total === 0 ? 0 : (row.tokens / total) * 100));
}

/** An answer without a summary or a series is "empty" (spec section 7: such an answer is asked again). */
export function isGeminiAnswerEmpty(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const answer = value as Partial<GeminiUsage>;
  return !answer.summary || !Array.isArray(answer.time_series);
}

export function geminiSummary(usage: GeminiUsage, hours: GeminiWindow): string {
  const { total_requests, total_tokens, total_cost } = usage.summary;
  return (
    `Gemini tokens per hour over the last ${GEMINI_WINDOW_TEXT[hours].span}: ${formatCount(total_requests)} requests, ` +
    `${formatCount(total_tokens)} tokens, ${formatCurrency(total_cost)}.`
  );
}
