import type { AlertEvaluation } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { INITIAL_RUNTIME, step, type RuleRuntime, type RuleSettings, type Step } from './state-machine.js';

const T0 = Date.parse('2026-11-20T12:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const at = (ms: number) => new Date(ms).toISOString();

const RULE: RuleSettings = {
  condition_type: 'heartbeat_missing',
  pending_seconds: 60,
  no_data: 'keep',
  renotify_minutes: 0,
  notify_on_resolve: true,
};

const evaluation = (holds: boolean | null): AlertEvaluation => ({
  value: holds === null ? null : 1,
  threshold: 0,
  unit: 'count',
  holds,
  summary: '',
});
const HOLDS = evaluation(true);
const CLEAR = evaluation(false);
const NO_DATA = evaluation(null);

/** One evaluation of a scenario: what it measured, when (ms after T0), whether silenced, and what follows. */
interface Tick {
  e: AlertEvaluation;
  after: number;
  silenced?: boolean;
  state: RuleRuntime['state'];
  transition?: Step['transition'];
  notify?: Step['notify'];
}

/** Steps a rule through the ticks from INITIAL_RUNTIME (or `start`), checking each step. */
function run(rule: Partial<RuleSettings>, ticks: Tick[], start: RuleRuntime = INITIAL_RUNTIME): RuleRuntime {
  let runtime = start;
  for (const [i, tick] of ticks.entries()) {
    const result = step({ ...RULE, ...rule }, runtime, tick.e, T0 + tick.after, tick.silenced ?? false);
    expect(
      { state: result.next.state, transition: result.transition, notify: result.notify },
      `tick ${i} at +${tick.after / 1000} s`,
    ).toEqual({ state: tick.state, transition: tick.transition ?? null, notify: tick.notify ?? null });
    runtime = result.next;
  }
  return runtime;
}

describe('alert state machine', () => {
  it('waits out the pending period before firing, and notifies once', () => {
    const end = run({ pending_seconds: 60 }, [
      { e: CLEAR, after: 0, state: 'ok' },
      { e: HOLDS, after: 30 * SECOND, state: 'pending', transition: { from: 'ok', to: 'pending' } },
      { e: HOLDS, after: 60 * SECOND, state: 'pending' },
      // 59.999 s after it started to hold: not yet.
      { e: HOLDS, after: 89_999, state: 'pending' },
      {
        e: HOLDS,
        after: 90 * SECOND,
        state: 'firing',
        transition: { from: 'pending', to: 'firing' },
        notify: 'firing',
      },
      { e: HOLDS, after: 120 * SECOND, state: 'firing' },
    ]);
    expect(end).toEqual({
      state: 'firing',
      state_since: at(T0 + 90 * SECOND),
      pending_since: at(T0 + 30 * SECOND),
      last_notified_at: at(T0 + 90 * SECOND),
    });
  });

  it('goes back to OK without a notification when the condition stops holding while pending', () => {
    const end = run({ pending_seconds: 300 }, [
      { e: HOLDS, after: 0, state: 'pending', transition: { from: 'ok', to: 'pending' } },
      { e: CLEAR, after: 30 * SECOND, state: 'ok', transition: { from: 'pending', to: 'ok' } },
      // Holding again starts a new pending period.
      { e: HOLDS, after: 60 * SECOND, state: 'pending', transition: { from: 'ok', to: 'pending' } },
      { e: HOLDS, after: 330 * SECOND, state: 'pending' },
    ]);
    expect(end.pending_since).toBe(at(T0 + 60 * SECOND));
  });

  it('fires at once with no pending period', () => {
    const end = run({ pending_seconds: 0 }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
    ]);
    expect(end).toEqual({
      state: 'firing',
      state_since: at(T0),
      pending_since: at(T0),
      last_notified_at: at(T0),
    });
  });

  it.each([
    { notify_on_resolve: true, notify: 'resolved' as const },
    { notify_on_resolve: false, notify: null },
  ])('resolves to OK (notify_on_resolve $notify_on_resolve)', ({ notify_on_resolve, notify }) => {
    const end = run({ pending_seconds: 0, notify_on_resolve }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
      { e: CLEAR, after: MINUTE, state: 'ok', transition: { from: 'firing', to: 'ok' }, notify },
    ]);
    expect(end).toEqual({
      state: 'ok',
      state_since: at(T0 + MINUTE),
      pending_since: null,
      last_notified_at: null,
    });
  });

  it('re-notifies every renotify_minutes while firing, counted from the last notification', () => {
    run({ pending_seconds: 0, renotify_minutes: 10 }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
      { e: HOLDS, after: 9 * MINUTE + 59 * SECOND, state: 'firing' },
      { e: HOLDS, after: 10 * MINUTE, state: 'firing', notify: 'renotify' },
      { e: HOLDS, after: 15 * MINUTE, state: 'firing' },
      { e: HOLDS, after: 20 * MINUTE + 30 * SECOND, state: 'firing', notify: 'renotify' },
      { e: HOLDS, after: 30 * MINUTE, state: 'firing' },
      { e: HOLDS, after: 30 * MINUTE + 30 * SECOND, state: 'firing', notify: 'renotify' },
    ]);
  });

  it('never re-notifies with renotify_minutes 0', () => {
    run({ pending_seconds: 0, renotify_minutes: 0 }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
      { e: HOLDS, after: 24 * 60 * MINUTE, state: 'firing' },
    ]);
  });

  it('never re-notifies a budget rule: each threshold fires once a day', () => {
    run({ condition_type: 'budget_usage', pending_seconds: 0, renotify_minutes: 5 }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
      { e: HOLDS, after: 5 * MINUTE, state: 'firing' },
      { e: HOLDS, after: 6 * 60 * MINUTE, state: 'firing' },
      // The day turns: usage falls back and the rule resolves.
      {
        e: CLEAR,
        after: 12 * 60 * MINUTE,
        state: 'ok',
        transition: { from: 'firing', to: 'ok' },
        notify: 'resolved',
      },
    ]);
  });

  it('holds back the notification while silenced and sends it at the first evaluation after', () => {
    const end = run({ pending_seconds: 0, renotify_minutes: 60 }, [
      { e: HOLDS, after: 0, silenced: true, state: 'firing', transition: { from: 'ok', to: 'firing' } },
      { e: HOLDS, after: MINUTE, silenced: true, state: 'firing' },
      { e: HOLDS, after: 2 * MINUTE, state: 'firing', notify: 'firing' },
      { e: HOLDS, after: 3 * MINUTE, state: 'firing' },
    ]);
    expect(end.last_notified_at).toBe(at(T0 + 2 * MINUTE));
    expect(end.state_since).toBe(at(T0));
  });

  it('does not notify a resolve while silenced, nor of a firing never notified', () => {
    run({ pending_seconds: 0 }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
      { e: CLEAR, after: MINUTE, silenced: true, state: 'ok', transition: { from: 'firing', to: 'ok' } },
    ]);
    run({ pending_seconds: 0 }, [
      { e: HOLDS, after: 0, silenced: true, state: 'firing', transition: { from: 'ok', to: 'firing' } },
      { e: CLEAR, after: MINUTE, state: 'ok', transition: { from: 'firing', to: 'ok' } },
    ]);
  });

  it('does not re-notify while silenced, and re-notifies when due after', () => {
    run({ pending_seconds: 0, renotify_minutes: 10 }, [
      { e: HOLDS, after: 0, state: 'firing', transition: { from: 'ok', to: 'firing' }, notify: 'firing' },
      { e: HOLDS, after: 10 * MINUTE, silenced: true, state: 'firing' },
      { e: HOLDS, after: 12 * MINUTE, state: 'firing', notify: 'renotify' },
    ]);
  });

  describe('no data', () => {
    it("counts as OK with no_data 'ok'", () => {
      run({ pending_seconds: 0, no_data: 'ok' }, [
        { e: NO_DATA, after: 0, state: 'ok' },
        {
          e: HOLDS,
          after: MINUTE,
          state: 'firing',
          transition: { from: 'ok', to: 'firing' },
          notify: 'firing',
        },
        {
          e: NO_DATA,
          after: 2 * MINUTE,
          state: 'ok',
          transition: { from: 'firing', to: 'ok' },
          notify: 'resolved',
        },
      ]);
    });

    it("counts as holding with no_data 'alerting', through the pending period", () => {
      run({ pending_seconds: 60, no_data: 'alerting' }, [
        { e: NO_DATA, after: 0, state: 'pending', transition: { from: 'ok', to: 'pending' } },
        {
          e: NO_DATA,
          after: MINUTE,
          state: 'firing',
          transition: { from: 'pending', to: 'firing' },
          notify: 'firing',
        },
        {
          e: CLEAR,
          after: 2 * MINUTE,
          state: 'ok',
          transition: { from: 'firing', to: 'ok' },
          notify: 'resolved',
        },
      ]);
    });

    it("keeps each state with no_data 'keep'; a firing rule still re-notifies when due", () => {
      run({ pending_seconds: 60, no_data: 'keep', renotify_minutes: 10 }, [
        { e: NO_DATA, after: 0, state: 'ok' },
        { e: HOLDS, after: MINUTE, state: 'pending', transition: { from: 'ok', to: 'pending' } },
        // No data does not advance the pending period to firing.
        { e: NO_DATA, after: 5 * MINUTE, state: 'pending' },
        {
          e: HOLDS,
          after: 6 * MINUTE,
          state: 'firing',
          transition: { from: 'pending', to: 'firing' },
          notify: 'firing',
        },
        { e: NO_DATA, after: 10 * MINUTE, state: 'firing' },
        { e: NO_DATA, after: 16 * MINUTE, state: 'firing', notify: 'renotify' },
      ]);
    });

    it("sends a firing held back by a silence at the first evaluation after it, even with no data 'keep'", () => {
      run({ pending_seconds: 0, no_data: 'keep' }, [
        { e: HOLDS, after: 0, silenced: true, state: 'firing', transition: { from: 'ok', to: 'firing' } },
        { e: NO_DATA, after: MINUTE, state: 'firing', notify: 'firing' },
      ]);
    });
  });

  it('leaves an OK rule whose condition does not hold as it was', () => {
    const result = step(RULE, INITIAL_RUNTIME, CLEAR, T0, false);
    expect(result).toEqual({ next: INITIAL_RUNTIME, transition: null, notify: null });
  });
});
