import { describe, expect, it } from 'vitest';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy.js';

describe('parseTrustProxy', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('reads %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each([
    'yes',
    'all',
    '*',
    '-1',
    '1.5',
    '100',
    '10.0.0.0/33',
    '10.0.0.0/8/1',
    'example.com',
    '10.0.0.1,',
    '',
  ])('refuses %j', (value) => {
    expect(parseTrustProxy(value)).toBeNull();
  });
});

describe('fastifyTrustProxy', () => {
  it('trusts as many hops as set, counting the peer that connected as the first', () => {
    const trust = fastifyTrustProxy(2);
    expect(typeof trust).toBe('function');
    const byHop = trust as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => byHop('10.0.0.1', hop))).toEqual([true, true, false]);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
    expect(fastifyTrustProxy(false)).toBe(false);
  });
});
