import { describe, expect, it } from 'vitest';
import { earliestStart, isGroup, type PastSend } from './send-pacing.js';

const sent = (startedAt: number, answeredAt: number | null = startedAt + 100): PastSend => ({
  startedAt,
  answeredAt,
});

describe('earliestStart: no window at the receiver holds more than the limit', () => {
  it.each<[string, PastSend[], number, number, number]>([
    ['fewer sends than the limit: now', [sent(0), sent(10)], 3, 1000, 500],
    // Three sends started at 0, 10 and 20: the first answered at 100 holds the window until 1,100.
    ['the limit reached: a window after the first answer', [sent(0), sent(10), sent(20)], 3, 1000, 1100],
    // Not answered yet: it may still be on its way for inFlightMs (5,000 here).
    [
      'an unanswered send counts until it can no longer arrive',
      [sent(0, null), sent(10), sent(20)],
      3,
      1000,
      6000,
    ],
    // One send a chat: the next waits a gap after the answer, not after the start.
    ['a chat gap counts from the answer', [sent(0, 400)], 1, 1000, 1400],
  ])('%s', (_name, sends, limit, windowMs, expected) => {
    expect(earliestStart(sends, limit, windowMs, 5_000, 500)).toBe(expected);
  });

  it('never answers before `from`', () => {
    expect(earliestStart([sent(0, 10)], 1, 100, 5_000, 2_000)).toBe(2_000);
  });
});

describe('isGroup', () => {
  it.each([
    ['-1002145839201', true],
    ['@lumi_news', true],
    ['123456789', false],
  ])('%s', (chatId, expected) => {
    expect(isGroup(chatId)).toBe(expected);
  });
});
