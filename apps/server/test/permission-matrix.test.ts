import { API_KEY_SCOPES, apiKeyCreateSchema, type Role, type User } from '@lumi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, REFRESH_COOKIE, type CreatedUser, type TestApp } from './helper.js';

/**
 * Who may call what (spec, "Access control"; docs/operators/security.md). Every API route must have a row here: the first
 * test fails when a route exists without one, or a row names a route that no longer exists.
 * 'ok' means the permission check let the caller through (any status but 401 and 403, and no 5xx);
 * 401 and 403 mean the request was refused for want of a session or a permission.
 *
 * Each route is also called by a bot's API key holding every scope (telemetry issue, "API keys"). A key
 * passes only routes that name a scope for it, so `key` is written out only where it is let through;
 * without it a row expects 403 (or 'ok' on public routes).
 */
type Outcome = 'ok' | 401 | 403;
type Caller = 'anonymous' | 'viewer' | 'operator' | 'admin';
type Row = Record<Caller, Outcome> & { key?: Outcome };

const PUBLIC: Row = { anonymous: 'ok', viewer: 'ok', operator: 'ok', admin: 'ok' };
const SIGNED_IN: Row = { anonymous: 401, viewer: 'ok', operator: 'ok', admin: 'ok' };
/** users:read, users:write, admin:audit:read and admin:keys:write: neither viewer nor operator has them. */
const ADMIN_ONLY: Row = { anonymous: 401, viewer: 403, operator: 403, admin: 'ok' };
/** config:read: every seeded role. */
const CONFIG_READ: Row = { anonymous: 401, viewer: 'ok', operator: 'ok', admin: 'ok' };
/** config:write: the operator and the admin, not the viewer. */
const CONFIG_WRITE: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
/** metrics:read: every seeded role. */
const METRICS_READ: Row = { anonymous: 401, viewer: 'ok', operator: 'ok', admin: 'ok' };
/** budgets:write: the operator and the admin. */
const BUDGETS_WRITE: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
/** limits:write: the operator and the admin (docs/operators/limits.md). */
const LIMITS_WRITE: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
/** templates:read: every seeded role. */
const TEMPLATES_READ: Row = { anonymous: 401, viewer: 'ok', operator: 'ok', admin: 'ok' };
/** templates:write, templates:send and channels:write: the operator and the admin, not the viewer. */
const TEMPLATES_WRITE: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
const TEMPLATES_SEND: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
const CHANNELS_WRITE: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
/** alerts:read: every seeded role; alerts:write: the operator and the admin (docs/bot-developers/alerts.md). */
const ALERTS_READ: Row = { anonymous: 401, viewer: 'ok', operator: 'ok', admin: 'ok' };
const ALERTS_WRITE: Row = { anonymous: 401, viewer: 403, operator: 'ok', admin: 'ok' };
/** permission 'api-key': bots with the route's scope, never a user. */
const KEYS_ONLY: Row = { anonymous: 401, viewer: 403, operator: 403, admin: 403, key: 'ok' };

const MATRIX: Record<string, Row> = {
  'GET /api/health': PUBLIC,
  'GET /api/ready': PUBLIC,
  'GET /api/openapi.json': PUBLIC,
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/refresh': PUBLIC,
  'POST /api/auth/logout': PUBLIC,
  'GET /api/auth/me': SIGNED_IN,
  'GET /api/auth/profile': SIGNED_IN,
  'PUT /api/auth/profile': SIGNED_IN,
  'POST /api/auth/change-password': SIGNED_IN,
  'POST /api/auth/2fa/verify': PUBLIC,
  'GET /api/auth/2fa': SIGNED_IN,
  'POST /api/auth/2fa/setup': SIGNED_IN,
  'POST /api/auth/2fa/enable': SIGNED_IN,
  'POST /api/auth/2fa/disable': SIGNED_IN,
  'GET /api/auth/sessions': SIGNED_IN,
  'DELETE /api/auth/sessions/:id': SIGNED_IN,
  'POST /api/auth/sessions/revoke-others': SIGNED_IN,
  'GET /api/users': ADMIN_ONLY,
  'GET /api/users/:id': ADMIN_ONLY,
  'POST /api/users': ADMIN_ONLY,
  'PUT /api/users/:id': ADMIN_ONLY,
  'DELETE /api/users/:id': ADMIN_ONLY,
  'GET /api/users/:id/sessions': ADMIN_ONLY,
  'POST /api/users/:id/sessions/revoke': ADMIN_ONLY,
  'POST /api/users/:id/2fa/reset': ADMIN_ONLY,
  'POST /api/users/:id/password-reset': ADMIN_ONLY,
  'GET /api/roles': ADMIN_ONLY,
  'POST /api/roles': ADMIN_ONLY,
  'PUT /api/roles/:id': ADMIN_ONLY,
  'DELETE /api/roles/:id': ADMIN_ONLY,
  'GET /api/admin/audit-logs': ADMIN_ONLY,
  'GET /api/admin/audit-logs/export': ADMIN_ONLY,
  'GET /api/admin/api/config/:domain': CONFIG_READ,
  'POST /api/admin/api/config/:domain': CONFIG_WRITE,
  'GET /api/admin/api/config/:domain/export': CONFIG_READ,
  'POST /api/admin/api/config/:domain/import': CONFIG_WRITE,
  'GET /api/admin/api/config/:domain/:id': CONFIG_READ,
  'PUT /api/admin/api/config/:domain/:id': CONFIG_WRITE,
  'DELETE /api/admin/api/config/:domain/:id': CONFIG_WRITE,
  'GET /api/admin/api/config/:domain/:id/revisions': CONFIG_READ,
  'POST /api/admin/api/config/:domain/:id/revisions/:revision/restore': CONFIG_WRITE,
  'GET /api/bot/config': { ...CONFIG_READ, key: 'ok' },
  'GET /api/admin/api-keys': ADMIN_ONLY,
  'POST /api/admin/api-keys': ADMIN_ONLY,
  'DELETE /api/admin/api-keys/:id': ADMIN_ONLY,
  'GET /api/admin/api-keys/:id/ignored-spans': ADMIN_ONLY,
  'PUT /api/admin/api-keys/:id/content': ADMIN_ONLY,
  'POST /api/ingest/events': KEYS_ONLY,
  'POST /api/otlp/v1/traces': KEYS_ONLY,
  'GET /api/metrics/bot-health': METRICS_READ,
  'GET /api/metrics/llm-usage': METRICS_READ,
  'GET /api/metrics/feedback': METRICS_READ,
  'GET /api/metrics/cache': METRICS_READ,
  'GET /api/metrics/market-data': METRICS_READ,
  'GET /api/metrics/gemini-usage': METRICS_READ,
  'GET /api/metrics/integrations': METRICS_READ,
  'GET /api/metrics/llm/latency': METRICS_READ,
  'GET /api/metrics/integrations/latency': METRICS_READ,
  'GET /api/metrics/llm/features': METRICS_READ,
  'GET /api/metrics/llm/top-chats': METRICS_READ,
  'GET /api/metrics/llm/top-users': METRICS_READ,
  'GET /api/metrics/llm/errors': METRICS_READ,
  'GET /api/metrics/llm/calls': METRICS_READ,
  'GET /api/metrics/llm/calls.csv': METRICS_READ,
  'GET /api/metrics/llm/calls/:id': METRICS_READ,
  // llm:content:read: no seeded role but the admin has it.
  'GET /api/metrics/llm/calls/:id/content': ADMIN_ONLY,
  'GET /api/metrics/changes': METRICS_READ,
  'GET /api/metrics/export/:panel.csv': METRICS_READ,
  'GET /api/config/token-budgets': METRICS_READ,
  'POST /api/config/token-budgets/:provider': BUDGETS_WRITE,
  'PUT /api/config/token-budgets/:provider': BUDGETS_WRITE,
  'DELETE /api/config/token-budgets/:provider': BUDGETS_WRITE,
  'GET /api/config/model-prices': METRICS_READ,
  'PUT /api/config/model-prices/:model': BUDGETS_WRITE,
  'DELETE /api/config/model-prices/:model': BUDGETS_WRITE,
  'GET /api/limits': METRICS_READ,
  'POST /api/limits': LIMITS_WRITE,
  'POST /api/limits/preview': LIMITS_WRITE,
  'GET /api/limits/access-rules': METRICS_READ,
  'POST /api/limits/access-rules': LIMITS_WRITE,
  'DELETE /api/limits/access-rules/:id': LIMITS_WRITE,
  'GET /api/limits/denials': METRICS_READ,
  'GET /api/limits/subjects/:kind/:subject': METRICS_READ,
  'GET /api/limits/:id': METRICS_READ,
  'PUT /api/limits/:id': LIMITS_WRITE,
  'DELETE /api/limits/:id': LIMITS_WRITE,
  'POST /api/bot/allowance': KEYS_ONLY,
  'GET /api/bot/limits': KEYS_ONLY,
  'POST /api/bot/allowance/usage': KEYS_ONLY,
  'GET /api/v1/messaging/channels': TEMPLATES_READ,
  'POST /api/v1/messaging/channels': CHANNELS_WRITE,
  'PUT /api/v1/messaging/channels/:id': CHANNELS_WRITE,
  'DELETE /api/v1/messaging/channels/:id': CHANNELS_WRITE,
  'GET /api/v1/messaging/channels/:id/topics': TEMPLATES_READ,
  'POST /api/v1/messaging/channels/:id/topics': CHANNELS_WRITE,
  'PUT /api/v1/messaging/channels/:id/topics/:topic_id': CHANNELS_WRITE,
  'DELETE /api/v1/messaging/channels/:id/topics/:topic_id': CHANNELS_WRITE,
  'GET /api/v1/messaging/templates': TEMPLATES_READ,
  'POST /api/v1/messaging/templates': TEMPLATES_WRITE,
  'GET /api/v1/messaging/templates/:id': TEMPLATES_READ,
  'PUT /api/v1/messaging/templates/:id': TEMPLATES_WRITE,
  'DELETE /api/v1/messaging/templates/:id': TEMPLATES_WRITE,
  'GET /api/v1/messaging/templates/:id/versions': TEMPLATES_READ,
  'GET /api/v1/messaging/templates/:id/versions/:version': TEMPLATES_READ,
  'POST /api/v1/messaging/templates/:id/versions/:version/restore': TEMPLATES_WRITE,
  'POST /api/v1/messaging/templates/:id/render': { ...TEMPLATES_READ, key: 'ok' },
  'POST /api/v1/messaging/render': { ...TEMPLATES_READ, key: 'ok' },
  'POST /api/v1/messaging/templates/:id/test': TEMPLATES_SEND,
  'GET /api/v1/messaging/templates/:id/test-history': TEMPLATES_READ,
  'GET /api/v1/messaging/variables': TEMPLATES_READ,
  'POST /api/v1/messaging/variables': TEMPLATES_WRITE,
  'PUT /api/v1/messaging/variables/:id': TEMPLATES_WRITE,
  'DELETE /api/v1/messaging/variables/:id': TEMPLATES_WRITE,
  'POST /api/v1/messaging/deliveries': { ...TEMPLATES_SEND, key: 'ok' },
  'POST /api/v1/messaging/deliveries/batch': { ...TEMPLATES_SEND, key: 'ok' },
  'GET /api/v1/messaging/deliveries': TEMPLATES_READ,
  'GET /api/v1/messaging/deliveries/summary': TEMPLATES_READ,
  'GET /api/v1/messaging/deliveries/:id': { ...TEMPLATES_READ, key: 'ok' },
  'POST /api/v1/messaging/deliveries/:id/cancel': TEMPLATES_SEND,
  'POST /api/v1/messaging/deliveries/:id/retry': TEMPLATES_SEND,
  'GET /api/v1/messaging/schedules': TEMPLATES_READ,
  'POST /api/v1/messaging/schedules': TEMPLATES_WRITE,
  'POST /api/v1/messaging/schedules/preview': TEMPLATES_READ,
  'GET /api/v1/messaging/schedules/:id': TEMPLATES_READ,
  'PUT /api/v1/messaging/schedules/:id': TEMPLATES_WRITE,
  'DELETE /api/v1/messaging/schedules/:id': TEMPLATES_WRITE,
  'POST /api/v1/messaging/schedules/:id/pause': TEMPLATES_WRITE,
  'POST /api/v1/messaging/schedules/:id/resume': TEMPLATES_WRITE,
  'GET /api/v1/messaging/schedules/:id/runs': TEMPLATES_READ,
  'GET /api/alerts/rules': ALERTS_READ,
  'POST /api/alerts/rules': ALERTS_WRITE,
  'POST /api/alerts/rules/preview': ALERTS_WRITE,
  'GET /api/alerts/rules/:id': ALERTS_READ,
  'PUT /api/alerts/rules/:id': ALERTS_WRITE,
  'DELETE /api/alerts/rules/:id': ALERTS_WRITE,
  'GET /api/alerts/summary': ALERTS_READ,
  'GET /api/alerts/contact-points': ALERTS_READ,
  'POST /api/alerts/contact-points': ALERTS_WRITE,
  'GET /api/alerts/contact-points/:id': ALERTS_READ,
  'PUT /api/alerts/contact-points/:id': ALERTS_WRITE,
  'DELETE /api/alerts/contact-points/:id': ALERTS_WRITE,
  'POST /api/alerts/contact-points/:id/test': ALERTS_WRITE,
  'GET /api/alerts/contact-points/:id/notifications': ALERTS_READ,
  'GET /api/alerts/silences': ALERTS_READ,
  'POST /api/alerts/silences': ALERTS_WRITE,
  'GET /api/alerts/silences/:id': ALERTS_READ,
  'PUT /api/alerts/silences/:id': ALERTS_WRITE,
  'DELETE /api/alerts/silences/:id': ALERTS_WRITE,
  'GET /api/alerts/history': ALERTS_READ,
};

interface Sample {
  url?: string;
  payload?: object;
  cookies?: Record<string, string>;
}

describe.each(dialects)('permission matrix on %s', (dialect) => {
  let t: TestApp;
  const callers: Partial<Record<Caller, CreatedUser>> = {};
  /** A user every caller may look at and edit. */
  let target: CreatedUser;
  /** A bot's API key with every scope. */
  let botKey: string;
  let serial = 0;
  const next = () => (serial += 1);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    callers.viewer = await t.createUser({ roles: ['viewer'], username: 'matrix-viewer' });
    callers.operator = await t.createUser({ roles: ['operator'], username: 'matrix-operator' });
    target = await t.createUser({ roles: ['viewer'], username: 'matrix-target' });
    const system = { id: null, username: null, ip: null, userAgent: 'permission matrix' };
    botKey = (
      await t.app.services.apiKeys.create(
        system,
        apiKeyCreateSchema.parse({ name: 'matrix-bot', scopes: API_KEY_SCOPES }),
      )
    ).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const signIn = async (caller: Caller) => {
    if (caller === 'anonymous') return null;
    if (caller === 'admin') return t.loginAdmin();
    const user = callers[caller]!;
    return t.login(user.username, user.password);
  };

  /** Runs with admin rights, so each sample has something real to act on. */
  const adminCall = async (method: 'POST', url: string, payload: object) => {
    const admin = await t.loginAdmin();
    const res = await t.app.inject({ method, url, payload, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(201);
    return res;
  };
  const throwawayUser = async () => {
    const n = next();
    const res = await adminCall('POST', '/api/users', {
      username: `throwaway-${n}`,
      email: `throwaway-${n}@example.test`,
      name: 'Throwaway',
      password: 'Throwaway-pass-1',
      roles: [t.roleIds.viewer],
    });
    return res.json<User>();
  };
  const throwawayRole = async () =>
    (
      await adminCall('POST', '/api/roles', { name: `throwaway-${next()}`, permissions: ['users:read'] })
    ).json<Role>();

  /** A request each route should accept from a caller who has the permission. */
  const samples: Record<string, () => Promise<Sample>> = {
    'POST /api/auth/login': async () => ({
      payload: { username: target.username, password: target.password },
    }),
    'POST /api/auth/refresh': async () => ({
      cookies: { [REFRESH_COOKIE]: (await t.login(target.username, target.password)).refreshToken },
    }),
    'PUT /api/auth/profile': async () => ({ payload: { name: `Matrix ${next()}` } }),
    // A wrong current password: gets past the permission check, changes nothing.
    'POST /api/auth/change-password': async () => ({
      payload: {
        current_password: 'Not-the-current-one-1',
        new_password: 'Matrix-new-pass-1',
        confirm_password: 'Matrix-new-pass-1',
      },
    }),
    // A challenge that is no challenge: gets past the (public) route, signs nobody in.
    'POST /api/auth/2fa/verify': async () => ({ payload: { challenge: 'not-a-challenge', code: '000000' } }),
    // No setup was started: 409, nothing changes.
    'POST /api/auth/2fa/enable': async () => ({ payload: { code: '000000' } }),
    // A wrong password: 422, nothing changes.
    'POST /api/auth/2fa/disable': async () => ({
      payload: { password: 'Not-the-password-1', code: '000000' },
    }),
    'DELETE /api/auth/sessions/:id': async () => ({ url: '/api/auth/sessions/not-a-session' }),
    'GET /api/users/:id': async () => ({ url: `/api/users/${target.id}` }),
    'GET /api/users/:id/sessions': async () => ({ url: `/api/users/${target.id}/sessions` }),
    'POST /api/users/:id/sessions/revoke': async () => ({
      url: `/api/users/${(await throwawayUser()).id}/sessions/revoke`,
    }),
    'POST /api/users/:id/2fa/reset': async () => ({
      url: `/api/users/${(await throwawayUser()).id}/2fa/reset`,
    }),
    'POST /api/users/:id/password-reset': async () => ({
      url: `/api/users/${(await throwawayUser()).id}/password-reset`,
      payload: { temporary_password: 'Temporary-pass-1' },
    }),
    'POST /api/users': async () => {
      const n = next();
      return {
        payload: {
          username: `matrix-new-${n}`,
          email: `matrix-new-${n}@example.test`,
          name: 'Matrix New',
          password: 'Matrix-new-pass-1',
          roles: [t.roleIds.viewer],
        },
      };
    },
    'PUT /api/users/:id': async () => ({
      url: `/api/users/${target.id}`,
      payload: { email: target.email, name: `Matrix ${next()}`, roles: [t.roleIds.viewer] },
    }),
    'DELETE /api/users/:id': async () => ({ url: `/api/users/${(await throwawayUser()).id}` }),
    'POST /api/roles': async () => ({ payload: { name: `matrix-${next()}`, permissions: ['users:read'] } }),
    'PUT /api/roles/:id': async () => {
      const role = await throwawayRole();
      return {
        url: `/api/roles/${role.id}`,
        payload: { name: role.name, permissions: ['admin:audit:read'] },
      };
    },
    'DELETE /api/roles/:id': async () => ({ url: `/api/roles/${(await throwawayRole()).id}` }),
    // Configuration items: a real domain, and an item that does not exist (404 is past the check).
    'GET /api/admin/api/config/:domain': async () => ({ url: '/api/admin/api/config/moods' }),
    'POST /api/admin/api/config/:domain': async () => ({
      url: '/api/admin/api/config/moods',
      payload: { name: `Matrix ${next()}`, content: 'calm' },
    }),
    'GET /api/admin/api/config/:domain/export': async () => ({ url: '/api/admin/api/config/moods/export' }),
    'POST /api/admin/api/config/:domain/import': async () => ({
      url: '/api/admin/api/config/moods/import',
      payload: { items: [] },
    }),
    'GET /api/admin/api/config/:domain/:id': async () => ({ url: '/api/admin/api/config/moods/999999' }),
    'PUT /api/admin/api/config/:domain/:id': async () => ({
      url: '/api/admin/api/config/moods/999999',
      payload: { name: 'Matrix', content: 'calm', version: 1 },
    }),
    'DELETE /api/admin/api/config/:domain/:id': async () => ({
      url: '/api/admin/api/config/moods/999999?version=1',
    }),
    'GET /api/admin/api/config/:domain/:id/revisions': async () => ({
      url: '/api/admin/api/config/moods/999999/revisions',
    }),
    'POST /api/admin/api/config/:domain/:id/revisions/:revision/restore': async () => ({
      url: '/api/admin/api/config/moods/999999/revisions/1/restore',
      payload: { version: 1 },
    }),
    // API keys: a key that does not exist is past the check (404).
    'POST /api/admin/api-keys': async () => ({
      payload: { name: `matrix-${next()}`, scopes: ['config:read'] },
    }),
    'DELETE /api/admin/api-keys/:id': async () => ({ url: '/api/admin/api-keys/999999' }),
    'PUT /api/admin/api-keys/:id/content': async () => ({
      url: '/api/admin/api-keys/999999/content',
      payload: { capture_content: true, content_redactions: [] },
    }),
    'GET /api/admin/api-keys/:id/ignored-spans': async () => ({
      url: '/api/admin/api-keys/999999/ignored-spans',
    }),
    'POST /api/ingest/events': async () => ({ payload: { events: [] } }),
    'POST /api/otlp/v1/traces': async () => ({ payload: { resourceSpans: [] } }),
    'GET /api/metrics/export/:panel.csv': async () => ({ url: '/api/metrics/export/usage.csv' }),
    // Budgets and prices: a provider of its own for each create, one that does not exist otherwise.
    'POST /api/config/token-budgets/:provider': async () => ({
      url: `/api/config/token-budgets/matrix-${next()}`,
      payload: { daily_token_limit: 1000 },
    }),
    'PUT /api/config/token-budgets/:provider': async () => ({
      url: '/api/config/token-budgets/matrix-none',
      payload: { daily_token_limit: 1000 },
    }),
    'DELETE /api/config/token-budgets/:provider': async () => ({
      url: '/api/config/token-budgets/matrix-none',
    }),
    'PUT /api/config/model-prices/:model': async () => ({
      url: '/api/config/model-prices/matrix-model',
      payload: { input_usd_per_million: 1, output_usd_per_million: 2 },
    }),
    'DELETE /api/config/model-prices/:model': async () => ({ url: '/api/config/model-prices/matrix-none' }),
    // Messaging: creates make their own; everything else names a channel, topic, template or variable
    // that does not exist (404, or 422 for a template's channel, is past the check). No test send
    // reaches Telegram.
    'POST /api/v1/messaging/channels': async () => ({
      payload: { channel_name: `Matrix ${next()}`, chat_id: '-100123' },
    }),
    'PUT /api/v1/messaging/channels/:id': async () => ({
      url: '/api/v1/messaging/channels/999999',
      payload: { enabled: false },
    }),
    'DELETE /api/v1/messaging/channels/:id': async () => ({ url: '/api/v1/messaging/channels/999999' }),
    'GET /api/v1/messaging/channels/:id/topics': async () => ({
      url: '/api/v1/messaging/channels/999999/topics',
    }),
    'POST /api/v1/messaging/channels/:id/topics': async () => ({
      url: '/api/v1/messaging/channels/999999/topics',
      payload: { topic_name: 'Matrix', message_thread_id: 1 },
    }),
    'PUT /api/v1/messaging/channels/:id/topics/:topic_id': async () => ({
      url: '/api/v1/messaging/channels/999999/topics/999999',
      payload: { enabled: false },
    }),
    'DELETE /api/v1/messaging/channels/:id/topics/:topic_id': async () => ({
      url: '/api/v1/messaging/channels/999999/topics/999999',
    }),
    'POST /api/v1/messaging/templates': async () => ({
      payload: { template_name: `Matrix ${next()}`, channel_id: 999999, template_content: 'x' },
    }),
    'GET /api/v1/messaging/templates/:id': async () => ({ url: '/api/v1/messaging/templates/999999' }),
    'PUT /api/v1/messaging/templates/:id': async () => ({
      url: '/api/v1/messaging/templates/999999',
      payload: { version: 1 },
    }),
    'DELETE /api/v1/messaging/templates/:id': async () => ({
      url: '/api/v1/messaging/templates/999999?version=1',
    }),
    'GET /api/v1/messaging/templates/:id/versions': async () => ({
      url: '/api/v1/messaging/templates/999999/versions',
    }),
    'GET /api/v1/messaging/templates/:id/versions/:version': async () => ({
      url: '/api/v1/messaging/templates/999999/versions/1',
    }),
    'POST /api/v1/messaging/templates/:id/versions/:version/restore': async () => ({
      url: '/api/v1/messaging/templates/999999/versions/1/restore',
      payload: {},
    }),
    'POST /api/v1/messaging/templates/:id/render': async () => ({
      url: '/api/v1/messaging/templates/999999/render',
      payload: { data: {} },
    }),
    'POST /api/v1/messaging/render': async () => ({ payload: { template_content: 'Hi {{name}}' } }),
    'POST /api/v1/messaging/templates/:id/test': async () => ({
      url: '/api/v1/messaging/templates/999999/test',
      payload: { data: {} },
    }),
    'GET /api/v1/messaging/templates/:id/test-history': async () => ({
      url: '/api/v1/messaging/templates/999999/test-history',
    }),
    'POST /api/v1/messaging/variables': async () => ({ payload: { variable_name: `matrix_${next()}` } }),
    'PUT /api/v1/messaging/variables/:id': async () => ({
      url: '/api/v1/messaging/variables/999999',
      payload: { category: 'Matrix' },
    }),
    'DELETE /api/v1/messaging/variables/:id': async () => ({ url: '/api/v1/messaging/variables/999999' }),
    // Deliveries name a template or delivery that does not exist (422 or 404, past the check).
    'POST /api/v1/messaging/deliveries': async () => ({ payload: { template_id: 999999 } }),
    'POST /api/v1/messaging/deliveries/batch': async () => ({
      payload: { deliveries: [{ template_id: 999999 }] },
    }),
    'GET /api/v1/messaging/deliveries/:id': async () => ({ url: '/api/v1/messaging/deliveries/999999' }),
    'POST /api/v1/messaging/deliveries/:id/cancel': async () => ({
      url: '/api/v1/messaging/deliveries/999999/cancel',
    }),
    'POST /api/v1/messaging/deliveries/:id/retry': async () => ({
      url: '/api/v1/messaging/deliveries/999999/retry',
    }),
    // Schedules name a template or schedule that does not exist (422 or 404, past the check).
    'POST /api/v1/messaging/schedules': async () => ({
      payload: { name: 'Matrix', template_id: 999999, recurrence: { kind: 'daily', time: '09:00' } },
    }),
    'POST /api/v1/messaging/schedules/preview': async () => ({
      payload: { recurrence: { kind: 'daily', time: '09:00' }, timezone: 'UTC' },
    }),
    'GET /api/v1/messaging/schedules/:id': async () => ({ url: '/api/v1/messaging/schedules/999999' }),
    'PUT /api/v1/messaging/schedules/:id': async () => ({
      url: '/api/v1/messaging/schedules/999999',
      payload: { version: 1 },
    }),
    'DELETE /api/v1/messaging/schedules/:id': async () => ({
      url: '/api/v1/messaging/schedules/999999?version=1',
    }),
    'POST /api/v1/messaging/schedules/:id/pause': async () => ({
      url: '/api/v1/messaging/schedules/999999/pause',
    }),
    'POST /api/v1/messaging/schedules/:id/resume': async () => ({
      url: '/api/v1/messaging/schedules/999999/resume',
    }),
    'GET /api/v1/messaging/schedules/:id/runs': async () => ({
      url: '/api/v1/messaging/schedules/999999/runs',
    }),
    // Alerts: creates make their own (a rule names a contact point that does not exist: 422, past the
    // check); everything else names a rule, contact point or silence that does not exist (404).
    'POST /api/alerts/rules': async () => ({
      payload: {
        name: `Matrix ${next()}`,
        condition: { type: 'telegram_disconnected' },
        contact_point_ids: [999999],
      },
    }),
    'POST /api/alerts/rules/preview': async () => ({
      payload: { condition: { type: 'telegram_disconnected' } },
    }),
    'GET /api/alerts/rules/:id': async () => ({ url: '/api/alerts/rules/999999' }),
    'PUT /api/alerts/rules/:id': async () => ({
      url: '/api/alerts/rules/999999',
      payload: { name: 'Matrix' },
    }),
    'DELETE /api/alerts/rules/:id': async () => ({ url: '/api/alerts/rules/999999' }),
    'POST /api/alerts/contact-points': async () => ({
      payload: { name: `Matrix ${next()}`, type: 'webhook', url: 'https://example.com/hooks/lumi' },
    }),
    'GET /api/alerts/contact-points/:id': async () => ({ url: '/api/alerts/contact-points/999999' }),
    'PUT /api/alerts/contact-points/:id': async () => ({
      url: '/api/alerts/contact-points/999999',
      payload: { name: 'Matrix' },
    }),
    'DELETE /api/alerts/contact-points/:id': async () => ({ url: '/api/alerts/contact-points/999999' }),
    'POST /api/alerts/contact-points/:id/test': async () => ({
      url: '/api/alerts/contact-points/999999/test',
    }),
    'GET /api/alerts/contact-points/:id/notifications': async () => ({
      url: '/api/alerts/contact-points/999999/notifications',
    }),
    'POST /api/alerts/silences': async () => ({
      payload: { kind: 'once', comment: `Matrix ${next()}`, ends_at: '2099-01-01T00:00:00Z' },
    }),
    'GET /api/alerts/silences/:id': async () => ({ url: '/api/alerts/silences/999999' }),
    'PUT /api/alerts/silences/:id': async () => ({
      url: '/api/alerts/silences/999999',
      payload: { kind: 'once', comment: 'Matrix', ends_at: '2099-01-01T00:00:00Z' },
    }),
    'DELETE /api/alerts/silences/:id': async () => ({ url: '/api/alerts/silences/999999' }),
  };

  it('has exactly one row for every API route', () => {
    const routes = t.app.routeCatalogue.map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes.filter((route) => !(route in MATRIX));
    const stale = Object.keys(MATRIX).filter((route) => !routes.includes(route));
    expect(missing, 'routes without a row in MATRIX').toEqual([]);
    expect(stale, 'rows in MATRIX for routes that do not exist').toEqual([]);
  });

  it('refuses HEAD without a token on every GET route that is not public', async () => {
    const guarded = t.app.routeCatalogue.filter((r) => r.method === 'GET' && r.permission !== 'public');
    expect(guarded.length).toBeGreaterThan(10);
    for (const route of guarded) {
      const url = (await samples[`GET ${route.url}`]?.())?.url ?? route.url;
      const res = await t.app.inject({ method: 'HEAD', url });
      expect(res.statusCode, `HEAD ${url}`).toBe(401);
    }
  });

  it.each(Object.entries(MATRIX))('%s', async (route, row) => {
    const [method, path] = route.split(' ') as [string, string];
    const permission = t.app.routeCatalogue.find((r) => `${r.method} ${r.url}` === route)?.permission;
    for (const caller of ['anonymous', 'viewer', 'operator', 'admin', 'key'] as const) {
      const sample = (await samples[route]?.()) ?? {};
      // A fresh session for every call, so a sign-out or a password change cannot leak into the next.
      const session =
        caller === 'key' ? { auth: { authorization: `Bearer ${botKey}` } } : await signIn(caller);
      const res = await t.app.inject({
        method: method as 'GET',
        url: sample.url ?? path,
        payload: sample.payload,
        cookies: sample.cookies,
        headers: session?.auth ?? {},
      });
      const what = `${route} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`;
      const expected = caller === 'key' ? (row.key ?? (permission === 'public' ? 'ok' : 403)) : row[caller];
      if (expected === 'ok') {
        expect([401, 403], what).not.toContain(res.statusCode);
        expect(res.statusCode, what).toBeLessThan(500);
      } else if (expected === 401) {
        expect(res.statusCode, what).toBe(401);
        expect(res.json(), what).toMatchObject({ code: 'unauthenticated' });
      } else {
        expect(res.statusCode, what).toBe(403);
        // The detail names the permission that is missing, or says that API keys are (or are not) the way in.
        const named = caller === 'key' || permission === 'api-key' ? 'API key' : String(permission);
        expect(res.json(), what).toMatchObject({ code: 'forbidden', detail: expect.stringContaining(named) });
      }
    }
  });
});
