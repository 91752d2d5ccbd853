/** Spec section 2: charts cycle their colours over 4 providers or models. */
export const CHART_SERIES_COLORS = [
  'var(--chart-1)',
  'var(--chart-2)',
  'var(--chart-3)',
  'var(--chart-4)',
] as const;

export function seriesColor(index: number): string {
  return CHART_SERIES_COLORS[index % CHART_SERIES_COLORS.length]!;
}

/** Besides its colour, each line has the dash pattern of its colour slot (colour is never the only signal). */
const DASHES = ['', '6 3', '2 3', '10 3 2 3'];

/** A chart line's stroke in its colour slot: colour, dash pattern and width. */
export function seriesStroke(slot: number) {
  return { stroke: seriesColor(slot), strokeDasharray: DASHES[slot % DASHES.length], strokeWidth: 2 };
}

/** FNV-1a: a cheap, well-spread hash of a name, the same in every browser and session. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The colour slot of each name shown together (models in a panel, providers in a chart). A slot follows
 * from the name, not from its rank, so a model keeps its colour when another time window re-sorts the
 * rows. Names that hash to a taken slot move to the next free one, in alphabetical order so the outcome
 * does not depend on the rows' order; only with more names than colours do two share one.
 */
export function seriesSlots(names: readonly string[]): Map<string, number> {
  const size = CHART_SERIES_COLORS.length;
  const slots = new Map<string, number>();
  const taken = new Set<number>();
  for (const name of [...new Set(names)].sort()) {
    if (taken.size === size) taken.clear();
    let slot = hashName(name) % size;
    while (taken.has(slot)) slot = (slot + 1) % size;
    taken.add(slot);
    slots.set(name, slot);
  }
  return slots;
}

/**
 * The four series colours per theme, set as CSS variables on the element holding a chart or its legend:
 * darker on the light card, lighter on the dark one, each at least 3:1 against the card.
 */
export const chartPaletteClass =
  '[--chart-1:oklch(0.5_0.2_290)] [--chart-2:oklch(0.52_0.11_210)] [--chart-3:oklch(0.58_0.15_50)] [--chart-4:oklch(0.53_0.19_350)] ' +
  'dark:[--chart-1:oklch(0.74_0.15_290)] dark:[--chart-2:oklch(0.76_0.11_210)] dark:[--chart-3:oklch(0.78_0.14_70)] dark:[--chart-4:oklch(0.74_0.16_350)]';

/** Axis, grid and tooltip colours from the theme's tokens, so charts read well in light and dark. */
export const chartTheme = {
  axis: 'var(--muted-foreground)',
  grid: 'var(--border)',
  tooltip: {
    contentStyle: {
      background: 'var(--card)',
      border: '1px solid var(--border)',
      borderRadius: 6,
      color: 'var(--card-foreground)',
      fontSize: 12,
    },
    labelStyle: { color: 'var(--card-foreground)', fontWeight: 600 },
    itemStyle: { color: 'var(--card-foreground)' },
  },
} as const;
