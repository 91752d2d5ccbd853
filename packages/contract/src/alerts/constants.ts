import { groupedNumber } from '../text.js';

/**
 * Alerts (docs/bot-developers/alerts.md): rules that watch the telemetry Lumi stores, a state machine per
 * rule (OK → Pending → Firing → OK), contact points that are told (a Telegram chat through the delivery
 * pipeline, or a signed webhook), and silences that keep an alert from notifying without stopping it.
 */

export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** A rule's state: `ok` is also where a resolved alert goes. */
export const ALERT_STATES = ['ok', 'pending', 'firing'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** What a rule does when its condition has no data: count it as OK, as holding, or keep the last state. */
export const ALERT_NO_DATA = ['ok', 'alerting', 'keep'] as const;
export type AlertNoData = (typeof ALERT_NO_DATA)[number];

export const ALERT_CONDITION_TYPES = [
  'heartbeat_missing',
  'telegram_disconnected',
  'errors',
  'llm_cost',
  'llm_failure_rate',
  'llm_latency',
  'budget_usage',
  'integration_success_rate',
  'market_data_stale',
  'cache_hit_rate',
  'delivery_failures',
  'limit_reached',
  'spend_spike',
] as const;
export type AlertConditionType = (typeof ALERT_CONDITION_TYPES)[number];

export const ALERT_CONDITION_LABELS: Record<AlertConditionType, string> = {
  heartbeat_missing: 'Bot heartbeat missing',
  telegram_disconnected: 'Bot not connected to Telegram',
  errors: 'Bot errors',
  llm_cost: 'LLM spend',
  llm_failure_rate: 'LLM failure rate',
  llm_latency: 'LLM latency',
  budget_usage: 'Token budget usage',
  integration_success_rate: 'Integration success rate',
  market_data_stale: 'Market data stale',
  cache_hit_rate: 'Cache hit rate',
  delivery_failures: 'Failed or refused deliveries',
  limit_reached: 'Limit reached',
  spend_spike: 'A chat’s or user’s spend far above its usual',
};

export const ALERT_LIMITS = {
  nameMax: 200,
  /** A window of minutes reaches back at most a day (the minute rollups are kept two days). */
  windowMinutesMax: 1440,
  heartbeatSecondsMin: 10,
  heartbeatSecondsMax: 86_400,
  pendingSecondsMax: 86_400,
  renotifyMinutesMax: 10_080,
  countMax: 1_000_000_000,
  usdMax: 1_000_000_000,
  latencyMsMax: 3_600_000,
  budgetPercentMax: 1000,
  contactPointsPerRule: 10,
  commentMax: 1000,
  urlMax: 2000,
  dimensionMax: 200,
  silenceDurationMinutesMax: 10_080,
  historyDefault: 50,
  historyMax: 200,
  notificationsDefault: 50,
  notificationsMax: 200,
} as const;

export const ALERT_MESSAGES = {
  nameRequired: 'Name the rule',
  nameMax: `At most ${ALERT_LIMITS.nameMax} characters`,
  contactPointNameRequired: 'Name the contact point',
  conditionType: `Choose a condition: ${ALERT_CONDITION_TYPES.join(', ')}`,
  wholeMinutes: `A whole number of minutes from 1 to ${ALERT_LIMITS.windowMinutesMax}`,
  heartbeatSeconds: `A whole number of seconds from ${ALERT_LIMITS.heartbeatSecondsMin} to ${groupedNumber(ALERT_LIMITS.heartbeatSecondsMax)}`,
  count: 'A whole number, 0 or more',
  minCalls: 'A whole number, 1 or more',
  usd: 'An amount in US dollars above 0',
  limitId: 'A limit’s id: a whole number above 0, or empty for every limit',
  factor: 'A factor from 2 to 1,000',
  percent: 'A percentage from 0 to 100',
  budgetPercent: `A percentage from 1 to ${ALERT_LIMITS.budgetPercentMax}`,
  latencyMs: 'A latency in milliseconds above 0',
  providerRequired: 'Choose the provider whose budget to watch',
  serviceRequired: 'Name the service to watch',
  pendingSeconds: `A whole number of seconds from 0 to ${groupedNumber(ALERT_LIMITS.pendingSecondsMax)}`,
  renotifyMinutes: `A whole number of minutes from 0 (never) to ${groupedNumber(ALERT_LIMITS.renotifyMinutesMax)}`,
  contactPointsMax: `At most ${ALERT_LIMITS.contactPointsPerRule} contact points`,
  contactPointsRequired: 'Choose at least one contact point, or disable the rule',
  channelRequired: 'Choose the channel the alerts go to',
  urlRequired: 'Enter the URL the alerts are posted to',
  url: 'Use an http:// or https:// URL such as https://example.com/hooks/lumi',
  silenceScope: 'Mute one rule or one severity, not both',
  endsAt: 'Must be an ISO 8601 time with Z or an offset',
  endsAfterStart: 'The end must be after the start',
  endsPassed: 'The end has already passed; choose a later time',
  time: 'Use a 24-hour time such as 02:00',
  weekdays: 'Choose at least one day',
  durationMinutes: `A whole number of minutes from 1 to ${groupedNumber(ALERT_LIMITS.silenceDurationMinutesMax)}`,
  timezone: 'Use an IANA time zone such as UTC or Europe/Berlin',
  commentRequired: 'Say why the alerts are muted',
  commentMax: `At most ${ALERT_LIMITS.commentMax} characters`,
} as const;
