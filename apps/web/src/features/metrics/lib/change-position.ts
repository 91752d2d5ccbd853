import type { ChangeMarker } from '@lumi/contract';

/** Where a change sits on a chart's x axis: a time in ms on a time axis, a category (a day) on another. */
export type ChangePosition = (change: ChangeMarker) => number | string | null;

const MINUTE_MS = 60_000;
/** Slot widths a time axis's changes are gathered in, each a whole number of the one before. */
const SLOTS_MS = [1, 5, 15, 30, 60, 120, 360, 720, 1440].map((minutes) => minutes * MINUTE_MS);
/** An axis holds about this many slots: a slot is then narrower than a flag on a wide chart. */
const SLOTS_PER_AXIS = 120;

/**
 * On a time axis spanning from..to (ms), changes in the same slot of about a 120th of the axis share one
 * flag at the slot's start (a change after `from` never moves before it), so changes seconds or minutes apart on a long range do
 * not draw flags on top of one another; each card still says when each change was saved.
 */
export function timeAxisPosition(from: number, to: number): ChangePosition {
  const slot = SLOTS_MS.find((width) => width * SLOTS_PER_AXIS >= to - from) ?? SLOTS_MS.at(-1)!;
  return (change) => {
    const at = Date.parse(change.at);
    if (Number.isNaN(at)) return null;
    return at < from ? at : Math.max(from, Math.floor(at / slot) * slot);
  };
}
