import { API_PREFIX } from '@lumi/contract';
import type {
  AccessRule,
  Limit,
  LimitDenial,
  LimitPreview,
  SessionUser,
  SubjectLimits,
} from '@lumi/contract';
import { fakeApi, type FakeRoutes } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';

/** The limits endpoints as the server answers them (GET and POST /api/limits/…). */

/** Reads the limits (metrics:read) and may change nothing. */
export const viewer: SessionUser = {
  id: 2,
  username: 'viewer',
  email: 'viewer@example.com',
  name: 'Viewer',
  role: 'viewer',
  roles: [{ id: 3, name: 'viewer', permissions: ['metrics:read'] }],
  pending_action: null,
};

const stamp = '2026-11-25T08:00:00.000Z';
const windowStart = '2026-11-25T00:00:00.000Z';
const windowEnd = '2026-11-26T00:00:00.000Z';

export function limit(id: number, overrides: Partial<Limit> = {}): Limit {
  return {
    id,
    scope: 'chat',
    subject: '-100123',
    metric: 'cost_usd',
    window: 'day',
    amount: 5,
    mode: 'hard',
    raise_amount: null,
    raise_until: null,
    effective_amount: overrides.amount ?? 5,
    note: '',
    created_at: stamp,
    created_by: 'admin',
    updated_at: stamp,
    updated_by: 'admin',
    usage: [],
    denials_24h: 0,
    ...overrides,
  };
}

export function usage(subject: string, used: number, amount: number) {
  return { subject, used, amount, window_start: windowStart, window_end: windowEnd };
}

export function accessRule(id: number, overrides: Partial<AccessRule> = {}): AccessRule {
  return {
    id,
    action: 'ban',
    subject_kind: 'chat',
    subject: '-100999',
    reason: 'Spam',
    expires_at: null,
    active: true,
    created_at: stamp,
    created_by: 'admin',
    ...overrides,
  };
}

export function denial(id: number, overrides: Partial<LimitDenial> = {}): LimitDenial {
  return {
    id,
    ts: stamp,
    chat_id: '-100123',
    user_id: '42',
    feature: 'reply',
    reason: 'limit_reached',
    limit_id: 1,
    limit: null,
    ...overrides,
  };
}

export function preview(overrides: Partial<LimitPreview> = {}): LimitPreview {
  return { over: [], near: [], window_start: windowStart, window_end: windowEnd, ...overrides };
}

interface FakeLimitsApiOptions {
  /** The limits, newest first. */
  limits?: Limit[];
  /** The bans and allowlist entries, newest first. */
  rules?: AccessRule[];
  /** The denials, newest first. */
  denials?: LimitDenial[];
  denialsPageSize?: number;
  limitsPageSize?: number;
  rulesPageSize?: number;
  total24h?: number;
  preview?: LimitPreview;
  subjects?: Record<string, SubjectLimits>;
  /** The test's own routes, paths as under /api; they win over the defaults. */
  routes?: FakeRoutes;
}

/**
 * The limits API on the fake API: the lists, the denials filtered and paged by cursor as the server does,
 * the preview's one answer and each subject's standing (keyed 'chat/-100123').
 */
export function fakeLimitsApi({
  limits = [],
  rules = [],
  denials = [],
  denialsPageSize = 50,
  limitsPageSize = 50,
  rulesPageSize = 50,
  total24h = denials.length,
  preview: previewAnswer = preview(),
  subjects = {},
  routes = {},
}: FakeLimitsApiOptions = {}) {
  return fakeApi(
    {
      'GET /limits': ({ query }) => {
        const { page, next_cursor } = newestPage(limits, query, limitsPageSize);
        return jsonResponse({ limits: page, next_cursor, total: limits.length });
      },
      'GET /limits/:id': (_request, { id }) => {
        const found = limits.find((entry) => entry.id === Number(id));
        return found
          ? jsonResponse(found)
          : jsonResponse({ detail: `There is no limit ${id}`, code: 'not_found' }, 404);
      },
      'POST /limits/preview': () => jsonResponse(previewAnswer),
      'GET /limits/access-rules': ({ query }) => {
        const { page, next_cursor } = newestPage(rules, query, rulesPageSize);
        return jsonResponse({ rules: page, next_cursor, total: rules.length });
      },
      'GET /limits/denials': ({ query }) => {
        const matching = denials.filter(
          (entry) =>
            (!query.has('chat_id') || entry.chat_id === query.get('chat_id')) &&
            (!query.has('user_id') || entry.user_id === query.get('user_id')) &&
            (!query.has('limit_id') || entry.limit_id === Number(query.get('limit_id'))),
        );
        const { page, next_cursor } = newestPage(matching, query, denialsPageSize);
        // Each names its limit's parts, as the server joins them: null once the limit is deleted.
        const named = page.map((entry) => {
          const found = limits.find((candidate) => candidate.id === entry.limit_id);
          return {
            ...entry,
            limit: found ? pick(found, ['scope', 'subject', 'metric', 'window', 'amount']) : entry.limit,
          };
        });
        // The count follows the filters, as the server's does.
        const filtered = ['chat_id', 'user_id', 'limit_id'].some((name) => query.has(name));
        return jsonResponse({
          denials: named,
          next_cursor,
          total_24h: filtered ? matching.length : total24h,
        });
      },
      'GET /limits/subjects/:kind/:subject': (_request, { kind, subject }) => {
        const standing = subjects[`${kind}/${decodeURIComponent(subject!)}`];
        return standing
          ? jsonResponse(standing)
          : jsonResponse({ kind, subject: decodeURIComponent(subject!), rule: null, limits: [] });
      },
      ...routes,
    },
    { base: API_PREFIX },
  );
}

const pick = <T extends object, K extends keyof T>(value: T, keys: K[]) =>
  Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;

/** A page of `entries` (newest first) before the query's cursor, at most `pageSize`, as the server cuts one. */
function newestPage<T extends { id: number }>(entries: T[], query: URLSearchParams, pageSize: number) {
  const cursor = query.get('cursor');
  const before = entries.filter((entry) => !cursor || entry.id < Number(cursor));
  const size = Math.min(pageSize, Number(query.get('limit') ?? 50));
  const page = before.slice(0, size);
  return { page, next_cursor: before.length > size ? page.at(-1)!.id : null };
}
