import type { GeminiUsage } from '@lumi/contract';
import { useLayoutEffect, useRef, useState, type PointerEvent } from 'react';
import { cn } from '@/lib/cn';
import { formatCurrency } from '@/lib/format';
import { chartPaletteClass, chartTheme, seriesColor } from '../lib/chart-palette';
import { countTicks, fittedLabels } from '../lib/chart-scale';
import { formatCompact, formatCount } from '../lib/format-metrics';
import {
  geminiAxisLabel,
  geminiDayTicks,
  geminiLabelKind,
  geminiSummary,
  geminiTooltipLabel,
  type GeminiWindow,
} from '../lib/gemini-series';

type Hour = GeminiUsage['time_series'][number];

/** The chart's height (`h-64`) and the room its axes take, in CSS pixels. */
const HEIGHT = 256;
const TOP = 8;
const RIGHT = 12;
const Y_AXIS_WIDTH = 48;
const X_AXIS_HEIGHT = 30;
/** A tick's length and the gap between it and its label. */
const TICK = 6;
const TICK_GAP = 2;
/** Each hour's bar fills the middle 80 % of its slot. */
const BAR_SHARE = 0.8;
const BAR_RADIUS = 2;

/** The chart box's width: the observer reports it after the browser's own layout, never forcing one. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** A bar from `bottom` up to `top`, its upper corners rounded. */
function barPath(x: number, width: number, top: number, bottom: number): string {
  const r = Math.min(BAR_RADIUS, width / 2, bottom - top);
  return (
    `M${x},${bottom}V${top + r}A${r},${r} 0 0 1 ${x + r},${top}` +
    `H${x + width - r}A${r},${r} 0 0 1 ${x + width},${top + r}V${bottom}Z`
  );
}

/** The hour under the pointer: its time, tokens, requests and cost. */
function HourTooltip({ hour, left, alignRight }: { hour: Hour; left: number; alignRight: boolean }) {
  return (
    <div
      style={{ ...chartTheme.tooltip.contentStyle, left, top: TOP }}
      className={cn(
        'pointer-events-none absolute space-y-0.5 px-3 py-2 whitespace-nowrap shadow-sm',
        alignRight && '-translate-x-full',
      )}
    >
      <p className="font-semibold">{geminiTooltipLabel(hour.timestamp)}</p>
      <p>{formatCount(hour.tokens)} tokens</p>
      <p>{formatCount(hour.requests)} requests</p>
      <p>{formatCurrency(hour.cost)}</p>
    </div>
  );
}

/**
 * Gemini tokens per hour as bars; the week-long window labels days, the others hours (spec section 2). Drawn
 * as plain SVG rather than with recharts: this chart is in a phone's first view of the Metrics screen, where
 * recharts' first render was the screen's longest task (docs/benchmarks.md, "The first signed-in load").
 * The figures are in the panel's totals and models table; pointing at a bar shows its hour's.
 */
export function GeminiUsageChart({ usage, hours }: { usage: GeminiUsage; hours: GeminiWindow }) {
  const { ref, width } = useWidth();
  // The hour under the pointer, by its timestamp: a refreshed or another window's series keeps it only
  // while it still has that hour.
  const [pointedAt, setPointedAt] = useState<string | null>(null);
  const series = usage.time_series;
  const ticks = countTicks(Math.max(0, ...series.map((hour) => hour.tokens)));
  const top = ticks[ticks.length - 1] ?? 1;
  const plotLeft = Y_AXIS_WIDTH;
  const plotWidth = Math.max(0, width - Y_AXIS_WIDTH - RIGHT);
  const plotBottom = HEIGHT - X_AXIS_HEIGHT;
  const slot = series.length > 0 ? plotWidth / series.length : 0;
  const yOf = (value: number) => TOP + (plotBottom - TOP) * (1 - value / top);
  const xOf = (index: number) => plotLeft + slot * (index + 0.5);

  const byDay = geminiLabelKind(hours) === 'day';
  const labelWidth = byDay ? 96 : 72;
  const indexOf = new Map(series.map((hour, index) => [hour.timestamp, index]));
  const labelled = fittedLabels(
    byDay ? geminiDayTicks(series) : series.map((hour) => hour.timestamp),
    plotWidth,
    labelWidth,
  );

  const point = (event: PointerEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left - plotLeft;
    const index = Math.floor(x / slot);
    setPointedAt((slot > 0 && series[index]?.timestamp) || null);
  };
  const pointed = pointedAt === null ? undefined : indexOf.get(pointedAt);
  const pointedX = pointed === undefined ? 0 : xOf(pointed);
  const pointedOnRight = pointedX > width / 2;

  return (
    <div
      ref={ref}
      role="img"
      aria-label={geminiSummary(usage, hours)}
      className={cn('relative h-64 w-full', chartPaletteClass)}
    >
      {width > 0 && (
        <svg
          width={width}
          height={HEIGHT}
          className="block touch-pan-y"
          onPointerMove={point}
          onPointerDown={point}
          // A finger lifted leaves the chart too: its hour stays shown until another is touched.
          onPointerLeave={(event) => event.pointerType !== 'touch' && setPointedAt(null)}
        >
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={plotLeft}
                x2={plotLeft + plotWidth}
                y1={yOf(tick)}
                y2={yOf(tick)}
                stroke={chartTheme.grid}
                strokeDasharray="3 3"
              />
              <text
                x={plotLeft - TICK - TICK_GAP}
                y={yOf(tick)}
                dy="0.355em"
                textAnchor="end"
                fill={chartTheme.axis}
                fontSize={12}
              >
                {formatCompact(tick)}
              </text>
            </g>
          ))}
          <path
            d={`M${plotLeft},${TOP}V${plotBottom}H${plotLeft + plotWidth}`}
            fill="none"
            stroke={chartTheme.grid}
          />
          {pointed !== undefined && (
            <rect
              x={plotLeft + slot * pointed}
              y={TOP}
              width={slot}
              height={plotBottom - TOP}
              fill={chartTheme.grid}
              opacity={0.4}
            />
          )}
          {series.map((hour, index) =>
            hour.tokens > 0 ? (
              <path
                key={hour.timestamp}
                d={barPath(
                  plotLeft + slot * (index + (1 - BAR_SHARE) / 2),
                  slot * BAR_SHARE,
                  yOf(hour.tokens),
                  plotBottom,
                )}
                fill={seriesColor(0)}
              />
            ) : null,
          )}
          {labelled.map((timestamp, index) => {
            const x = xOf(indexOf.get(timestamp) ?? 0);
            const atEdge = index === labelled.length - 1 && x + labelWidth / 2 > width;
            return (
              <text
                key={timestamp}
                x={x}
                y={plotBottom + TICK + TICK_GAP}
                dy="0.71em"
                textAnchor={atEdge ? 'end' : 'middle'}
                fill={chartTheme.axis}
                fontSize={12}
              >
                {geminiAxisLabel(timestamp, hours)}
              </text>
            );
          })}
        </svg>
      )}
      {pointed !== undefined && (
        <HourTooltip
          hour={series[pointed]!}
          left={pointedX + (pointedOnRight ? -slot : slot)}
          alignRight={pointedOnRight}
        />
      )}
    </div>
  );
}
