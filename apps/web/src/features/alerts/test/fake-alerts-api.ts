import { API_PREFIX, nextStep } from '@lumi/contract';
import type {
  AlertHistoryEntry,
  AlertRule,
  Channel,
  ContactPoint,
  Silence,
  Template,
  Topic,
} from '@lumi/contract';
import { fakeApi, type FakeRoutes } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';

/** The alerts endpoints (and the messaging lists a contact point picks from) as the server answers them. */

const stamp = '2026-11-25T08:00:00.000Z';

export function rule(id: number, overrides: Partial<AlertRule> = {}): AlertRule {
  const rule: Omit<AlertRule, 'next_step'> = {
    id,
    name: `Rule ${id}`,
    condition: { type: 'heartbeat_missing', seconds: 60 },
    severity: 'warning',
    pending_seconds: 0,
    no_data: 'keep',
    renotify_minutes: 0,
    notify_on_resolve: true,
    contact_point_ids: [1],
    enabled: true,
    state: 'ok',
    state_since: stamp,
    last_evaluation: {
      value: 4,
      threshold: 60,
      unit: 's',
      holds: false,
      summary: 'Last heartbeat 4 s ago (threshold 60 s)',
    },
    last_evaluated_at: stamp,
    silenced: false,
    created_at: stamp,
    updated_at: stamp,
    updated_by: 'admin',
    ...overrides,
  };
  return { ...rule, next_step: overrides.next_step ?? nextStep(rule.condition) };
}

export function contactPoint(id: number, overrides: Partial<ContactPoint> = {}): ContactPoint {
  return {
    id,
    name: `Contact ${id}`,
    type: 'telegram',
    channel_id: 1,
    channel_name: 'Ops chat',
    topic_id: null,
    template_id: null,
    template_name: null,
    url: null,
    rule_count: 0,
    created_at: stamp,
    updated_at: stamp,
    updated_by: 'admin',
    ...overrides,
  };
}

export function silence(id: number, overrides: Partial<Silence> = {}): Silence {
  return {
    id,
    kind: 'once',
    rule_id: null,
    rule_name: null,
    severity: null,
    comment: `Silence ${id}`,
    starts_at: stamp,
    ends_at: '2026-11-25T10:00:00.000Z',
    weekdays: null,
    start_time: null,
    duration_minutes: null,
    timezone: null,
    status: 'active',
    next_change_at: '2026-11-25T10:00:00.000Z',
    created_at: stamp,
    created_by: 'admin',
    ...overrides,
  };
}

export function historyEntry(id: number, overrides: Partial<AlertHistoryEntry> = {}): AlertHistoryEntry {
  return {
    id,
    rule_id: 1,
    rule_name: 'Rule 1',
    severity: 'warning',
    from_state: 'ok',
    to_state: 'firing',
    value: 120,
    threshold: 60,
    summary: 'No heartbeat for 120 s (threshold 60 s)',
    silenced: false,
    at: stamp,
    ...overrides,
  };
}

export function channel(id: number, name: string): Channel {
  return {
    id,
    channel_name: name,
    chat_id: `@chat_${id}x`,
    enabled: true,
    description: '',
    send_problem: null,
    send_problem_at: null,
    created_at: stamp,
    updated_at: stamp,
  };
}

export function topic(id: number, channelId: number, name: string): Topic {
  return {
    id,
    channel_id: channelId,
    topic_name: name,
    message_thread_id: id * 10,
    enabled: true,
    created_at: stamp,
    updated_at: stamp,
  };
}

interface FakeAlertsApiOptions {
  rules?: AlertRule[];
  contactPoints?: ContactPoint[];
  silences?: Silence[];
  /** The history, newest first. */
  history?: AlertHistoryEntry[];
  historyPageSize?: number;
  channels?: Channel[];
  topics?: Record<number, Topic[]>;
  templates?: Template[];
  /** The test's own routes, paths as under /api; they win over the defaults. */
  routes?: FakeRoutes;
}

/**
 * The alerts API on the fake API: the lists (read at each request, so a test's route may change them),
 * the history filtered and paged by cursor as the server does, a preview that answers "holds" and the
 * messaging lists of channels, topics and templates.
 */
export function fakeAlertsApi({
  rules = [],
  contactPoints = [],
  silences = [],
  history = [],
  historyPageSize = 50,
  channels = [channel(1, 'Ops chat')],
  topics = {},
  templates = [],
  routes = {},
}: FakeAlertsApiOptions = {}) {
  return fakeApi(
    {
      'GET /alerts/rules': () => jsonResponse({ rules }),
      'GET /alerts/contact-points': () => jsonResponse({ contact_points: contactPoints }),
      'GET /alerts/silences': () => jsonResponse({ silences }),
      'POST /alerts/rules/preview': () =>
        jsonResponse({
          value: 340,
          threshold: 60,
          unit: 's',
          holds: true,
          summary: 'No heartbeat for 340 s (threshold 60 s)',
        }),
      'GET /alerts/history': ({ query }) => {
        const cursor = query.get('cursor');
        const matching = history.filter(
          (entry) =>
            (!query.has('rule_id') || entry.rule_id === Number(query.get('rule_id'))) &&
            (!query.has('state') || entry.to_state === query.get('state')) &&
            (!query.has('severity') || entry.severity === query.get('severity')) &&
            (!cursor || entry.id < Number(cursor)),
        );
        const page = matching.slice(0, historyPageSize);
        const last = page.at(-1);
        return jsonResponse({
          entries: page,
          next_cursor: matching.length > historyPageSize && last ? last.id : null,
        });
      },
      'GET /v1/messaging/channels': () => jsonResponse(channels),
      'GET /v1/messaging/channels/:id/topics': (_request, { id }) => jsonResponse(topics[Number(id)] ?? []),
      'GET /v1/messaging/templates': () => jsonResponse(templates),
      ...routes,
    },
    { base: API_PREFIX },
  );
}
