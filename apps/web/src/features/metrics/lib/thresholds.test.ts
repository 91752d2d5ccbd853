import { describe, expect, it } from 'vitest';
import {
  budgetBarPercent,
  budgetLevel,
  budgetUsageText,
  cacheHitLevel,
  geminiModelLabel,
  integrationLevel,
  isBotHealthy,
  isMarketLive,
  marketFeedLabel,
  speedBoostPercent,
  uptimeHours,
} from './thresholds';

describe('isBotHealthy', () => {
  it.each([
    { telegram_status: 'connected', error_count_24h: 0, expected: true },
    { telegram_status: 'connected', error_count_24h: 9, expected: true },
    { telegram_status: 'connected', error_count_24h: 10, expected: false },
    { telegram_status: 'disconnected', error_count_24h: 0, expected: false },
    { telegram_status: 'no_heartbeat', error_count_24h: 0, expected: false },
    { telegram_status: 'Connected', error_count_24h: 0, expected: false },
  ])('$telegram_status with $error_count_24h errors: $expected', ({ expected, ...health }) => {
    expect(isBotHealthy(health)).toBe(expected);
  });
});

describe('uptimeHours', () => {
  it.each([
    { seconds: 0, expected: 0 },
    { seconds: 3599, expected: 0 },
    { seconds: 3600, expected: 1 },
    { seconds: 7199, expected: 1 },
    { seconds: 90_000, expected: 25 },
  ])('$seconds s is $expected h', ({ seconds, expected }) => {
    expect(uptimeHours(seconds)).toBe(expected);
  });
});

describe('market feed', () => {
  it.each([
    { data_freshness: 'current', websocket_status: 'connected', live: true, label: 'Live' },
    { data_freshness: 'current', websocket_status: 'reconnecting', live: false, label: 'current' },
    {
      data_freshness: 'stale (12 min behind)',
      websocket_status: 'connected',
      live: false,
      label: 'stale (12 min behind)',
    },
    { data_freshness: 'no data', websocket_status: 'unknown', live: false, label: 'no data' },
  ])('$data_freshness / $websocket_status: $label', ({ live, label, ...status }) => {
    expect(isMarketLive(status)).toBe(live);
    expect(marketFeedLabel(status)).toBe(label);
  });
});

describe('cacheHitLevel', () => {
  it.each([
    { hitRate: 0.95, expected: 'success' },
    { hitRate: 0.8001, expected: 'success' },
    { hitRate: 0.8, expected: 'warning' },
    { hitRate: 0.5, expected: 'warning' },
    { hitRate: 0, expected: 'warning' },
  ])('$hitRate is $expected', ({ hitRate, expected }) => {
    expect(cacheHitLevel(hitRate)).toBe(expected);
  });
});

describe('speedBoostPercent', () => {
  it.each([
    { cached: 20, uncached: 200, expected: 90 },
    { cached: 50, uncached: 100, expected: 50 },
    { cached: 100, uncached: 100, expected: 0 },
    { cached: 150, uncached: 100, expected: -50 },
    { cached: 0, uncached: 0, expected: null },
  ])('$cached ms against $uncached ms is $expected %', ({ cached, uncached, expected }) => {
    expect(speedBoostPercent(cached, uncached)).toBe(expected);
  });
});

describe('budget bar', () => {
  it.each([
    { usage: 0, level: 'success', width: 0, text: 'Normal' },
    { usage: 60, level: 'success', width: 60, text: 'Normal' },
    { usage: 60.5, level: 'warning', width: 60.5, text: 'High' },
    { usage: 80, level: 'warning', width: 80, text: 'High' },
    { usage: 80.1, level: 'error', width: 80.1, text: 'Critical' },
    { usage: 100, level: 'error', width: 100, text: 'Limit reached' },
    { usage: 250, level: 'error', width: 100, text: 'Limit reached' },
  ])('$usage % is $level ($text), bar $width %', ({ usage, level, width, text }) => {
    expect(budgetLevel(usage)).toBe(level);
    expect(budgetBarPercent(usage)).toBe(width);
    expect(budgetUsageText(usage)).toBe(text);
  });
});

describe('integrationLevel', () => {
  it.each([
    { rate: 100, expected: 'success' },
    { rate: 99.5, expected: 'success' },
    { rate: 99, expected: 'warning' },
    { rate: 95.01, expected: 'warning' },
    { rate: 95, expected: 'error' },
    { rate: 0, expected: 'error' },
  ])('$rate % is $expected', ({ rate, expected }) => {
    expect(integrationLevel(rate)).toBe(expected);
  });
});

describe('geminiModelLabel', () => {
  it.each([
    { model: 'gemini-pro-vision', expected: 'Gemini Vision' },
    { model: 'Gemini-Vision-Latest', expected: 'Gemini Vision' },
    { model: 'text-embedding-004', expected: 'Text Embedding' },
    { model: 'gemini-embedding-001', expected: 'Text Embedding' },
    { model: 'gemini-1.5-pro', expected: 'Gemini Pro' },
    { model: 'gemini-2.0-flash', expected: 'Gemini Pro' },
  ])('$model is $expected', ({ model, expected }) => {
    expect(geminiModelLabel(model)).toBe(expected);
  });
});
