import { describe, expect, it } from 'vitest';
import {
  activeRaise,
  describeLimit,
  describeUsage,
  describeUsageSubject,
  describeWho,
  formatAmount,
  usageLevel,
  usagePercent,
} from './limit-text';

describe('limit words', () => {
  it.each([
    ['chat', '-100123', 'Chat -100123'],
    ['user', '42', 'User 42'],
    ['feature', 'digest', 'Feature digest'],
    ['each_chat', null, 'Each chat'],
    ['each_user', null, 'Each user'],
  ] as const)('names a %s limit’s subject', (scope, subject, expected) => {
    expect(describeWho(scope, subject)).toBe(expected);
  });

  it('names each chat’s and user’s usage by the chat or user', () => {
    expect(describeUsageSubject('each_chat', '-100123')).toBe('Chat -100123');
    expect(describeUsageSubject('each_user', '42')).toBe('User 42');
    expect(describeUsageSubject('feature', 'digest')).toBe('Feature digest');
  });

  it.each([
    ['cost_usd', 'day', 5, '$5.00 per day'],
    ['requests', 'hour', 100, '100 requests per hour'],
    ['requests', 'minute', 1, '1 request per minute'],
    ['tokens', 'month', 50_000, '50,000 tokens per month'],
  ] as const)('words a %s limit per %s', (metric, window, amount, expected) => {
    expect(describeLimit({ metric, window, amount })).toBe(expected);
  });

  it('words usage against the amount in force', () => {
    expect(describeUsage('cost_usd', 3.2, 5)).toBe('$3.20 of $5.00');
    expect(describeUsage('requests', 80, 100)).toBe('80 of 100 requests');
    expect(describeUsage('tokens', 12_000.4, 50_000)).toBe('12,000 of 50,000 tokens');
    expect(formatAmount('cost_usd', 0.075)).toBe('$0.075');
  });

  it.each([
    [0, 5, 0, 'ok'],
    [3.99, 5, 79.8, 'ok'],
    [4, 5, 80, 'near'],
    [4.99, 5, 99.8, 'near'],
    [5, 5, 100, 'over'],
    [12, 10, 120, 'over'],
  ] as const)('puts %s of %s at %s %% (%s)', (used, amount, percent, level) => {
    expect(usagePercent(used, amount)).toBeCloseTo(percent);
    expect(usageLevel(used, amount)).toBe(level);
  });

  it('counts a raise only until it ends', () => {
    const now = Date.parse('2026-11-25T08:00:00.000Z');
    const raise = { raise_amount: 10, raise_until: '2026-11-25T09:00:00.000Z' };
    expect(activeRaise(raise, now)).toEqual({ amount: 10, until: raise.raise_until });
    expect(activeRaise(raise, Date.parse('2026-11-25T09:00:00.000Z'))).toBeNull();
    expect(activeRaise({ raise_amount: null, raise_until: null }, now)).toBeNull();
  });
});
