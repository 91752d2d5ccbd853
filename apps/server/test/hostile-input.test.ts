import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { JSON_LIMIT_MESSAGES, JSON_LIMITS } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { ADMIN, dialects, expectError, useTestApp } from './helper.js';
import { botKey, events, ingest } from './telemetry-helper.js';

const NUL_MESSAGE = 'Must not contain control characters (found U+0000)';
const HIDDEN = 'Names cannot contain invisible characters, line breaks or text-direction controls';

/**
 * Bad input (docs/operators/security.md, "Bounded work"): hostile text and structure get the same 4xx on both databases and
 * never reach storage (PostgreSQL refuses NUL in text, which was a 500).
 */
describe.each(dialects)('hostile input on %s', (dialect) => {
  const t = useTestApp(dialect);

  /** JSON text of objects nested `depth` deep, written out: JSON.stringify itself would overflow the stack. */
  const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '"leaf"' + '}'.repeat(depth - 1);

  it('answers a URL over 16 KB, which never reaches a route, in the one error shape', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(`GET /api/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: localhost\r\n\r\n`);
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toMatch(/\r\ncontent-type: application\/json/);
    const requestId = /\r\nx-request-id: ([\w.-]+)/.exec(head!)?.[1];
    expect(JSON.parse(body!)).toEqual({
      detail: 'The request’s headers, its URL among them, are over 16 KB: send less',
      code: 'headers_too_large',
      request_id: requestId,
    });
    expect(requestId).toBeTruthy();
  });

  it('refuses NUL in the sign-in username without signing in or failing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'ad\u0000min', password: ADMIN.password },
    });
    const body = expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([{ path: 'username', message: NUL_MESSAGE }]);
    expect(body.detail).toBe(`username: ${NUL_MESSAGE}`);
  });

  it.each([
    ['a user name', 'POST', '/api/users', { name: 'x\u0000' }, 'name'],
    [
      'a config item',
      'POST',
      '/api/admin/api/config/moods',
      { content: { text: 'a\u0000b' } },
      'content.text',
    ],
    ['a config key', 'POST', '/api/admin/api/config/moods', { content: { 'k\u0001': 1 } }, 'content.k\u0001'],
    ['a template', 'POST', '/api/v1/messaging/render', { template_content: 'hi\u0000' }, 'template_content'],
    ['render data', 'POST', '/api/v1/messaging/render', { data: { x: '\u001b[31m' } }, 'data.x'],
    ['a lone surrogate', 'POST', '/api/admin/api/config/moods', { description: 'a\ud800' }, 'description'],
  ] as const)(
    'refuses control characters in %s with the field’s message',
    async (_, method, url, patch, path) => {
      const admin = await t.loginAdmin();
      const valid: Record<string, object> = {
        '/api/users': {
          username: 'hostile-user',
          email: 'hostile@example.test',
          name: 'Hostile',
          password: 'Hostile-pass-8812',
          roles: [t.roleIds.viewer],
        },
        '/api/admin/api/config/moods': { name: 'calm', content: { tone: 'calm' }, tags: [], priority: 1 },
        '/api/v1/messaging/render': { template_content: 'hi', parse_mode: 'HTML', data: {} },
      };
      const res = await t.app.inject({
        method,
        url,
        headers: admin.auth,
        payload: { ...valid[url], ...patch },
      });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors?.[0]?.path).toBe(path);
      expect(body.errors?.[0]?.message).toMatch(
        /^(Field name: )?Must (not contain control characters|be valid Unicode)/,
      );
    },
  );

  it.each([
    ['/api/users?search=a%00b', 'search'],
    ['/api/admin/audit-logs?user=a%00b', 'user'],
    ['/api/admin/audit-logs?action=%07', 'action'],
  ])('refuses control characters in the query %s', async (url, path) => {
    const admin = await t.loginAdmin();
    const body = expectError(await t.app.inject({ method: 'GET', url, headers: admin.auth }), 422);
    expect(body.errors?.[0]?.path).toBe(path);
  });

  it.each([
    ['DELETE', '/api/config/token-budgets/open%00ai'],
    ['PUT', '/api/config/model-prices/gpt%00'],
  ] as const)('refuses control characters in the path of %s %s', async (method, url) => {
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method,
      url,
      headers: admin.auth,
      ...(method === 'PUT' && { payload: { input_usd_per_million: 1, output_usd_per_million: 2 } }),
    });
    expect(expectError(res, 422).errors?.[0]?.message).toBe(NUL_MESSAGE);
  });

  it('rejects only the ingested event that carries a NUL; the rest of the batch is stored', async () => {
    const key = await botKey(t);
    const now = Date.now();
    const result = await ingest(t.app, key, [
      events.error(now, { id: 'e-1' }),
      events.error(now, { id: 'e-2', message: 'broken\u0000message' }),
      events.llmCall(now, { id: 'e-3', model: 'gpt\u0000' }),
      events.heartbeat(now, { id: 'e-4' }),
    ]);
    expect(result).toMatchObject({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 1, detail: `message: ${NUL_MESSAGE}` },
        { index: 2, detail: `model: ${NUL_MESSAGE}` },
      ],
    });
    // The same batch again: the good events are duplicates, the bad ones rejected again, nothing fails.
    const again = await ingest(t.app, key, [
      events.error(now, { id: 'e-1' }),
      events.heartbeat(now, { id: 'e-4' }),
    ]);
    expect(again).toMatchObject({ accepted: 0, duplicates: 2, rejected: [] });
  });

  it.each([
    ['a zero-width space', 'ad\u200Bmin'],
    ['a right-to-left override', '\u202Enimda'],
    ['a line break', 'Ad\nmin'],
  ])('refuses %s in names', async (_, name) => {
    const admin = await t.loginAdmin();
    const user = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: admin.auth,
      payload: { name },
    });
    expect(expectError(user, 422).errors).toEqual([{ path: 'name', message: HIDDEN }]);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: admin.auth,
      payload: { name, scopes: ['ingest:write'] },
    });
    expect(expectError(key, 422).errors).toEqual([{ path: 'name', message: HIDDEN }]);
    const channel = await t.app.inject({
      method: 'POST',
      url: '/api/v1/messaging/channels',
      headers: admin.auth,
      payload: { channel_name: name, chat_id: '-1001234567890' },
    });
    expect(expectError(channel, 422).errors?.[0]).toEqual({ path: 'channel_name', message: HIDDEN });
  });

  it('refuses JSON nested deeper than the limit before parsing it, and takes what is within it', async () => {
    const admin = await t.loginAdmin();
    const post = (content: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/api/config/moods',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        payload: `{"name": "deep", "tags": [], "priority": 1, "content": ${content}}`,
      });
    for (const depth of [JSON_LIMITS.maxDepth + 1, 5_000, 100_000]) {
      const body = expectError(await post(nested(depth)), 422, 'validation_failed');
      expect(body.detail).toBe(JSON_LIMIT_MESSAGES.depth);
    }
    // The body's own object is one level, so content may nest one less.
    expect((await post(nested(JSON_LIMITS.maxDepth - 1))).statusCode).toBe(201);
  });

  it('refuses an object with too many keys or a list with too many items before parsing it', async () => {
    const admin = await t.loginAdmin();
    const post = (content: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/api/config/moods',
        headers: admin.auth,
        payload: { name: `wide ${Math.random()}`, tags: [], priority: 1, content },
      });
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const tooWide = expectError(await post(keys(70_000)), 422, 'validation_failed');
    expect(tooWide.detail).toBe(JSON_LIMIT_MESSAGES.objectKeys);
    const tooLong = expectError(await post({ list: Array(JSON_LIMITS.maxArrayItems + 1).fill(0) }), 422);
    expect(tooLong.detail).toBe(JSON_LIMIT_MESSAGES.arrayItems);
    expect((await post(keys(JSON_LIMITS.maxObjectKeys))).statusCode).toBe(201);
  });
});
