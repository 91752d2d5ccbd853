import type { ChangeMarker } from '@lumi/contract';
import { Popover } from 'radix-ui';
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { ReferenceLine } from 'recharts';
import type { ChangePosition } from '../lib/change-position';
import { ChangeList, savedAt, savedBy } from './change-list';

/**
 * Change markers (docs/operators/metrics.md, "Change markers"): the configuration, template, budget and price
 * changes of a chart's range, each a dashed vertical line at the moment it was saved, with a flag on top.
 * Hovering or focusing the flag shows who changed what, and when; Enter, Space or a click keeps the card open
 * and moves into it, to its links to the changed items and the list of the earlier changes of a busy moment;
 * Escape closes it and goes back to the flag.
 */

/** By default a change sits at its instant, for a time axis in ms (TimeSeriesChart's). */
const atInstant: ChangePosition = (change) => Date.parse(change.at);

/** How long the card stays after the pointer leaves the flag, so it can move onto the card's links. */
const HOVER_GRACE_MS = 200;

/** The card's distance from the edges of the window, and from the sticky top bar. */
const EDGE_PX = 8;

/**
 * The room the card keeps from the window's edges. At the top that includes the app's sticky top bar: the
 * page's scroll-padding-top, which styles.css sets to keep targets clear of the bar and the browser
 * resolves to pixels. So the card opens below its flag rather than under the bar when there is no room
 * above it.
 */
function cardPadding() {
  const topBar = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  return { top: topBar + EDGE_PX, right: EDGE_PX, bottom: EDGE_PX, left: EDGE_PX };
}

export interface ChangeGroup {
  x: number | string;
  /** Oldest first. */
  changes: ChangeMarker[];
}

/**
 * One marker per position: changes saved in the same day on a day axis (or at the same instant) share a
 * flag and a card, so they never hide one another. Changes without a position are left out.
 */
export function groupChanges(changes: readonly ChangeMarker[], position: ChangePosition): ChangeGroup[] {
  const groups = new Map<number | string, ChangeMarker[]>();
  for (const change of changes) {
    const x = position(change);
    if (x === null || (typeof x === 'number' && Number.isNaN(x))) continue;
    groups.set(x, [...(groups.get(x) ?? []), change]);
  }
  return [...groups].map(([x, list]) => ({ x, changes: list }));
}

/** The flag's name for screen readers: how many changes, and the first one in words. */
function flagLabel(changes: readonly ChangeMarker[]): string {
  const first = changes[0]!;
  const what = `${first.summary}, by ${savedBy(first)}, ${savedAt(first)}`;
  return changes.length === 1 ? `Change: ${what}` : `${changes.length} changes, first: ${what}`;
}

export interface ChangeMarkerFlagProps {
  changes: readonly ChangeMarker[];
  /** Set by recharts: where the reference line starts (its x, and the plot's top). */
  viewBox?: { x?: number; y?: number };
}

/** The flag on top of a marker's line, with its card. Rendered by recharts as the line's label. */
export function ChangeMarkerFlag({ changes, viewBox }: ChangeMarkerFlagProps) {
  const [open, setOpen] = useState(false);
  const pinned = useRef(false);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const card = useRef<HTMLDivElement>(null);
  const flag = useRef<SVGGElement>(null);
  /** Whether the focus was in the card when it closed: then it goes back to the flag, else it stays. */
  const restoreFocus = useRef(false);
  /** True while the closed card hands the focus back to the flag, which then does not peek again. */
  const returning = useRef(false);

  useEffect(() => () => clearTimeout(closing.current), []);

  const peek = () => {
    if (returning.current) return;
    clearTimeout(closing.current);
    setOpen(true);
  };
  const closeSoon = () => {
    if (pinned.current) return;
    clearTimeout(closing.current);
    closing.current = setTimeout(() => setOpen(false), HOVER_GRACE_MS);
  };
  /** The card stays open until Escape, a click outside or the focus leaving it. */
  const keep = () => {
    clearTimeout(closing.current);
    pinned.current = true;
  };
  const pin = () => {
    keep();
    setOpen(true);
    // Once the card is there, into it: to its first link, or the card itself.
    requestAnimationFrame(() => {
      const target = card.current?.querySelector<HTMLElement>('a[href]') ?? card.current;
      target?.focus();
    });
  };
  const onBlur = (event: FocusEvent) => {
    if (!card.current?.contains(event.relatedTarget as Node | null)) closeSoon();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pin();
    }
  };

  if (changes.length === 0) return null;
  const x = viewBox?.x ?? 0;
  const y = viewBox?.y ?? 0;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          pinned.current = false;
          restoreFocus.current = card.current?.contains(document.activeElement) ?? false;
        }
        setOpen(next);
      }}
    >
      <Popover.Trigger asChild>
        <g
          ref={flag}
          transform={`translate(${x} ${y})`}
          tabIndex={0}
          role="button"
          aria-label={flagLabel(changes)}
          className="group cursor-pointer outline-none"
          onPointerEnter={peek}
          onPointerLeave={closeSoon}
          onFocus={peek}
          onBlur={onBlur}
          onKeyDown={onKeyDown}
          onClick={(event) => {
            // Radix would toggle: a card the pointer has opened stays open and is kept.
            event.preventDefault();
            pin();
          }}
        >
          {/* A larger invisible target than the flag, for the pointer. */}
          <rect x={-9} y={-2} width={18} height={20} fill="transparent" />
          <circle
            cx={0}
            cy={7}
            r={9}
            fill="none"
            stroke="var(--ring)"
            strokeWidth={2}
            className="opacity-0 group-focus-visible:opacity-100"
          />
          <path d="M0 0 L6 7 L0 14 L-6 7 Z" fill="var(--primary)" stroke="var(--card)" strokeWidth={1} />
          {changes.length > 1 && (
            <text x={8} y={11} fontSize={10} fill="var(--muted-foreground)" aria-hidden>
              {changes.length}
            </text>
          )}
        </g>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          ref={card}
          side="top"
          sideOffset={6}
          // Read from the page only while the card shows.
          collisionPadding={open ? cardPadding() : EDGE_PX}
          tabIndex={-1}
          aria-label={changes.length === 1 ? 'Change' : `${changes.length} changes`}
          // Focus stays where it is when the card only peeks; pin() moves it in.
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!restoreFocus.current) return;
            restoreFocus.current = false;
            returning.current = true;
            flag.current?.focus();
            returning.current = false;
          }}
          onPointerEnter={peek}
          onPointerLeave={closeSoon}
          // No taller than the room between the top bar and the window's edge: a long list scrolls.
          className="z-50 max-h-(--radix-popover-content-available-height) w-72 max-w-[calc(100vw-1rem)] space-y-3 overflow-y-auto rounded-md border bg-card p-3 text-sm text-card-foreground shadow-lg outline-none"
        >
          <ChangeList changes={changes} onOpenEarlier={keep} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

export interface ChangeMarkersProps {
  /** The changes to draw, as GET /metrics/changes answers them (oldest first). */
  changes: readonly ChangeMarker[];
  /** Where a change sits on the x axis; by default its instant in ms, for a time axis. */
  position?: ChangePosition;
}

/**
 * The markers, as recharts elements: render inside a chart (a LineChart's children, or TimeSeriesChart's
 * `markers`). A change outside the x axis's domain is not drawn.
 */
export function ChangeMarkers({ changes, position = atInstant }: ChangeMarkersProps) {
  return groupChanges(changes, position).map((group) => (
    <ReferenceLine
      key={String(group.x)}
      x={group.x}
      stroke="var(--primary)"
      strokeDasharray="4 3"
      strokeOpacity={0.7}
      ifOverflow="discard"
      label={<ChangeMarkerFlag changes={group.changes} />}
    />
  ));
}
