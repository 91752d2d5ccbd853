import type {
  AccessRule,
  AccessRuleListResponse,
  Allowance,
  AuditLog,
  BotLimitsSnapshot,
  BotUsageResponse,
  Limit,
  LimitDenialsResponse,
  LimitInput,
  LimitListResponse,
  LimitPreview,
  SubjectLimits,
} from '@lumi/contract';
import { LIMITS_LIMITS } from '@lumi/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { eventually } from './cluster-process.js';
import { dialects, expectError, useTestApp } from './helper.js';
import { adminGet, botKey, CHAT_DAY_COST, events, HOUR, ingest, MINUTE } from './telemetry-helper.js';

/**
 * (docs/operators/limits.md, docs/bot-developers/limits.md) Limits, bans and allowlists, and the decision a
 * bot asks for: POST /api/bot/allowance, exact under parallel checks, on both databases.
 */

const START = Date.parse('2026-11-20T12:30:00.000Z');
const TZ = 'Europe/Berlin';

describe.each(dialects)('limits and the allowance on %s', (dialect) => {
  let clock = START;
  const t = useTestApp(dialect, {
    app: { now: () => clock, telemetry: { timezone: TZ } },
  });

  async function admin() {
    return (await t.loginAdmin()).auth;
  }
  async function createLimit(input: LimitInput, headers?: Record<string, string>) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limits',
      headers: headers ?? (await admin()),
      payload: input,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Limit>();
  }
  async function allowanceKey() {
    return botKey(t, ['allowance:read', 'ingest:write']);
  }
  /** Resolves once `app` counts the request limits `where` (exact-grants.ts). */
  const counting = (app: FastifyInstance, where: 'memory' | 'database') =>
    eventually(
      () => (app.services.allowance.countsWhere === where ? true : undefined),
      10_000,
      `counts in ${where}`,
    );

  function ask(app: FastifyInstance, key: Record<string, string>, body: Record<string, string>) {
    return app.inject({ method: 'POST', url: '/api/bot/allowance', headers: key, payload: body });
  }
  async function decide(key: Record<string, string>, body: Record<string, string>) {
    const res = await ask(t.app, key, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Allowance>();
  }

  it('admits a call no limit is on, and counts nothing for it', async () => {
    clock = START;
    const key = await allowanceKey();
    expect(await decide(key, { chat_id: '-100', user_id: '7', feature: 'reply' })).toEqual({
      allowed: true,
      reason: 'no_limits',
      limit: null,
      remaining: null,
      retry_after_seconds: null,
    });
  });

  it('denies a chat over a hard cost limit until its day ends in LUMI_TIMEZONE, and records the denial', async () => {
    clock = START;
    const key = await allowanceKey();
    const limit = await createLimit(CHAT_DAY_COST);
    await ingest(
      t.app,
      key,
      Array.from({ length: 4 }, (_, i) => events.llmCall(START - (i + 1) * MINUTE, { chat_id: '-100' })),
    );
    const within = await decide(key, { chat_id: '-100' });
    expect(within).toMatchObject({ allowed: true, reason: 'within_limits', remaining: expect.any(Number) });
    expect(within.limit).toMatchObject({ id: limit.id, subject: '-100', metric: 'cost_usd', amount: 0.05 });
    await ingest(t.app, key, [events.llmCall(START - 10 * MINUTE, { chat_id: '-100' })]);
    const denied = await decide(key, { chat_id: '-100', user_id: '7' });
    // Berlin's next midnight is 23:00 UTC.
    const untilMidnight = (Date.parse('2026-11-20T23:00:00.000Z') - START) / 1000;
    expect(denied).toMatchObject({
      allowed: false,
      reason: 'limit_reached',
      remaining: 0,
      retry_after_seconds: untilMidnight,
    });
    expect(denied.limit!.used).toBeGreaterThanOrEqual(0.05);
    // Another chat is not limited.
    expect((await decide(key, { chat_id: '-200' })).reason).toBe('no_limits');
    const denials = await adminGet<LimitDenialsResponse>(t, '/api/limits/denials');
    expect(denials.total_24h).toBe(1);
    // The count follows the filters.
    const count = async (filter: string) =>
      (await adminGet<LimitDenialsResponse>(t, `/api/limits/denials?${filter}`)).total_24h;
    expect([await count('chat_id=-100'), await count('chat_id=-200'), await count('user_id=8')]).toEqual([
      1, 0, 0,
    ]);
    expect(await count(`limit_id=${limit.id}`)).toBe(1);
    expect(denials.denials[0]).toMatchObject({
      ...{ chat_id: '-100', user_id: '7', limit_id: limit.id },
      limit: { scope: 'chat', subject: '-100', metric: 'cost_usd', window: 'day', amount: 0.05 },
    });
    const listed = await adminGet<LimitListResponse>(t, '/api/limits');
    expect(listed.limits[0]).toMatchObject({ denials_24h: 1, usage: [{ subject: '-100', amount: 0.05 }] });
    // A limit deleted since is named by its number only.
    await t.app.inject({ method: 'DELETE', url: `/api/limits/${limit.id}`, headers: await admin() });
    const after = await adminGet<LimitDenialsResponse>(t, '/api/limits/denials');
    expect(after.denials[0]).toMatchObject({ limit_id: limit.id, limit: null });
    // The next day starts from nothing.
    clock = Date.parse('2026-11-20T23:00:01.000Z');
    expect((await decide(key, { chat_id: '-100' })).allowed).toBe(true);
  });

  it('counts the calls it admitted and not yet reported at their window’s average cost, also when it reads again', async () => {
    clock = START;
    const key = await allowanceKey();
    await createLimit({ scope: 'each_chat', metric: 'cost_usd', window: 'day', amount: 1, mode: 'hard' });
    const used = async () => {
      const answer = await decide(key, { chat_id: '-7' });
      return answer.allowed ? answer.limit!.used : `denied at ${answer.limit!.used}`;
    };
    // Two calls admitted and reported at $0.25 each; each call admitted since counts $0.25 until it is
    // reported. The clock moves past the second a chat's usage is answered from memory, so each check after
    // reads it again.
    expect([await used(), await used()]).toEqual([0, 0]);
    await ingest(
      t.app,
      key,
      [1, 2].map((i) => events.llmCall(START - i * MINUTE, { chat_id: '-7', cost_usd: 0.25 })),
    );
    expect(await used()).toBe(0.5);
    clock += 2_000;
    expect(await used()).toBe(0.75);
    clock += 2_000;
    expect(await used()).toBe('denied at 1');
  });

  it("counts a month's earlier days, the day's earlier hours and the current hour, each window its own", async () => {
    clock = START;
    const key = await allowanceKey();
    // Berlin's month began on 2026-10-31 at 23:00 UTC and its day on 2026-11-19 at 23:00 UTC.
    const calls = (chat: string) => [
      events.llmCall('2026-10-31T22:30:00.000Z', { chat_id: chat }),
      ...['2026-11-02T08:00:00.000Z', '2026-11-10T09:15:00.000Z', '2026-11-19T22:59:00.000Z'].map((ts) =>
        events.llmCall(ts, { chat_id: chat }),
      ),
      ...['2026-11-19T23:30:00.000Z', '2026-11-20T11:10:00.000Z'].map((ts) =>
        events.llmCall(ts, { chat_id: chat }),
      ),
      events.llmCall(START - 10 * MINUTE, { chat_id: chat }),
    ];
    await ingest(t.app, key, [...calls('-300'), ...calls('-301')]);
    const month = await createLimit({
      scope: 'chat',
      subject: '-300',
      metric: 'requests',
      window: 'month',
      amount: 10,
      mode: 'hard',
    });
    const day = await createLimit({
      scope: 'chat',
      subject: '-301',
      metric: 'requests',
      window: 'day',
      amount: 10,
      mode: 'hard',
    });
    // The month: the three earlier days' calls, the day's two and the current hour's, and the one admitted now.
    expect((await decide(key, { chat_id: '-300' })).limit).toMatchObject({ id: month.id, used: 7 });
    // The day: its two earlier calls, the current hour's and the one admitted now.
    expect((await decide(key, { chat_id: '-301' })).limit).toMatchObject({ id: day.id, used: 4 });
  });

  it("counts a minute window's stored calls, their tokens and their cost, for a chat and a user", async () => {
    clock = START + 40_000;
    const key = await allowanceKey();
    const call = (at: number, user: string, tokens: number, cost: number) =>
      events.llmCall(at, {
        chat_id: '-400',
        user_id: user,
        input_tokens: tokens,
        output_tokens: 0,
        cost_usd: cost,
      });
    await ingest(t.app, key, [
      call(START + 10_000, '40', 300, 0.5),
      call(START + 20_000, '41', 200, 0.25),
      // The minute before: in neither window.
      call(START - 10_000, '40', 5_000, 9),
    ]);
    const cost = await createLimit({
      scope: 'chat',
      subject: '-400',
      metric: 'cost_usd',
      window: 'minute',
      amount: 1,
      mode: 'soft',
    });
    const tokens = await createLimit({
      scope: 'user',
      subject: '40',
      metric: 'tokens',
      window: 'minute',
      amount: 1000,
      mode: 'soft',
    });
    const decided = await decide(key, { chat_id: '-400' });
    expect(decided.limit).toMatchObject({ id: cost.id, used: 0.75 });
    expect((await decide(key, { user_id: '40' })).limit).toMatchObject({ id: tokens.id, used: 300 });
    clock = START + MINUTE;
    expect((await decide(key, { chat_id: '-400' })).limit).toMatchObject({ id: cost.id, used: 0 });
  });

  it('admits over a soft limit and says so; a raise lifts a hard one until it ends', async () => {
    clock = START;
    const key = await allowanceKey();
    await createLimit({ scope: 'each_user', metric: 'tokens', window: 'hour', amount: 100, mode: 'soft' });
    const hard = await createLimit({
      scope: 'feature',
      subject: 'digest',
      metric: 'tokens',
      window: 'hour',
      amount: 100,
      mode: 'hard',
      raise_amount: 1000,
      raise_until: new Date(START + 10 * MINUTE).toISOString(),
    });
    await ingest(t.app, key, [events.llmCall(START - MINUTE, { user_id: '7', feature: 'digest' })]);
    const soft = await decide(key, { user_id: '7', feature: 'digest' });
    expect(soft).toMatchObject({ allowed: true, reason: 'over_soft_limit' });
    // A call over a soft limit is not a denial, but it did reach the limit (the alert condition).
    expect((await adminGet<LimitDenialsResponse>(t, '/api/limits/denials')).total_24h).toBe(0);
    expect(await t.app.services.limits.reachedSince(new Date(START - MINUTE).toISOString(), null)).toBe(1);
    expect(await t.app.services.limits.reachedSince(new Date(START - MINUTE).toISOString(), hard.id)).toBe(0);
    clock = START + 11 * MINUTE;
    const denied = await decide(key, { user_id: '8', feature: 'digest' });
    expect(denied).toMatchObject({
      allowed: false,
      reason: 'limit_reached',
      limit: { id: hard.id, amount: 100 },
    });
    expect(denied.retry_after_seconds).toBe(19 * 60);
    // The ended raise sent back as it was read, to change the note: kept, ended; a new one must end later.
    const read = await adminGet<Limit>(t, `/api/limits/${hard.id}`);
    const { scope, subject, metric, window, amount, mode, raise_amount, raise_until } = read;
    const values = { scope, subject, metric, window, amount, mode, raise_amount, raise_until };
    const headers = await admin();
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/limits/${hard.id}`, headers, payload });
    const kept = await put({ ...values, note: 'Digest of the day' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Limit>()).toMatchObject({ note: 'Digest of the day', effective_amount: 100 });
    const moved = await put({ ...values, raise_until: new Date(START + 5 * MINUTE).toISOString() });
    expect(expectError(moved, 422, 'validation_failed').errors).toEqual([
      { path: 'raise_until', message: 'The raise’s end must be in the future' },
    ]);
  });

  it('bans deny and allowlist entries admit past every limit; a ban wins; expired rules decide nothing', async () => {
    clock = START;
    const key = await allowanceKey();
    const headers = await admin();
    await createLimit({ scope: 'each_chat', metric: 'requests', window: 'minute', amount: 1, mode: 'hard' });
    const rule = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/limits/access-rules', headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<AccessRule>();
    };
    await rule({
      action: 'ban',
      subject_kind: 'user',
      subject: '666',
      reason: 'spam',
      expires_at: new Date(START + HOUR).toISOString(),
    });
    await rule({ action: 'allow', subject_kind: 'chat', subject: '-1', reason: 'our own team chat' });
    expect(await decide(key, { chat_id: '-1', user_id: '666' })).toMatchObject({
      allowed: false,
      reason: 'banned',
      retry_after_seconds: 3600,
    });
    for (let i = 0; i < 3; i++) {
      expect((await decide(key, { chat_id: '-1', user_id: '5' })).reason).toBe('allowlisted');
    }
    expect((await decide(key, { chat_id: '-2' })).allowed).toBe(true);
    expect((await decide(key, { chat_id: '-2' })).allowed).toBe(false);
    // The same entry twice is a 409 in words; a past expiry a field error.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/limits/access-rules',
      headers,
      payload: { action: 'allow', subject_kind: 'chat', subject: '-1', reason: 'again' },
    });
    expect(expectError(again, 409).detail).toMatch(/Chat -1 has a ban or allowlist entry already/);
    const past = await t.app.inject({
      method: 'POST',
      url: '/api/limits/access-rules',
      headers,
      payload: {
        action: 'ban',
        subject_kind: 'chat',
        subject: '-3',
        reason: 'x',
        expires_at: new Date(START - 1).toISOString(),
      },
    });
    expectError(past, 422, 'validation_failed');
    clock = START + HOUR + 1;
    expect((await decide(key, { user_id: '666' })).reason).toBe('no_limits');
    const rules = await adminGet<{ rules: AccessRule[] }>(t, '/api/limits/access-rules');
    const expired = rules.rules.find((r) => r.subject === '666')!;
    expect(expired.active).toBe(false);
    // A new entry for a subject whose entry expired replaces it, and the audit log shows both; of two at
    // once, one is a 409.
    const renewing = await Promise.all(
      ['spam again', 'spam once more'].map((reason) =>
        t.app.inject({
          method: 'POST',
          url: '/api/limits/access-rules',
          headers,
          payload: { action: 'ban', subject_kind: 'user', subject: '666', reason },
        }),
      ),
    );
    expect(renewing.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    const renewed = renewing.find((res) => res.statusCode === 201)!.json<AccessRule>();
    expect((await decide(key, { user_id: '666' })).reason).toBe('banned');
    const after = await adminGet<{ rules: AccessRule[] }>(t, '/api/limits/access-rules');
    expect(after.rules.filter((r) => r.subject === '666').map((r) => r.id)).toEqual([renewed.id]);
    const audit = await adminGet<{ logs: AuditLog[] }>(
      t,
      '/api/admin/audit-logs?resource_type=access_rule&limit=2',
    );
    expect(audit.logs.map((log) => [log.action, log.resource_id])).toEqual([
      ['access_rule.created', String(renewed.id)],
      ['access_rule.deleted', String(expired.id)],
    ]);
  });

  it('admits exactly as many of 50 parallel checks as a request limit has left', async () => {
    clock = START;
    const key = await allowanceKey();
    await createLimit({ scope: 'each_chat', metric: 'requests', window: 'day', amount: 15, mode: 'hard' });
    for (let i = 0; i < 5; i++) expect((await decide(key, { chat_id: '-9' })).allowed).toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => ask(t.app, key, { chat_id: '-9', feature: 'reply' })),
    );
    expect(answers.map((res) => res.statusCode).every((status) => status === 200)).toBe(true);
    const decisions = answers.map((res) => res.json<Allowance>());
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.reason === 'limit_reached')).toBe(true);
    // The hour's grants count on towards the day.
    clock = START + HOUR;
    expect((await decide(key, { chat_id: '-9' })).allowed).toBe(false);
    // Also once what the allowance counted is stored and this instance has let go of the hour before.
    await adminGet(t, '/api/limits');
    await adminGet(t, '/api/limits');
    expect((await decide(key, { chat_id: '-9' })).allowed).toBe(false);
    expect((await decide(key, { chat_id: '-10' })).allowed).toBe(true);
  });

  it.runIf(dialect === 'postgres')('admits exactly as many across two instances', async () => {
    clock = START;
    const key = await allowanceKey();
    await createLimit({
      scope: 'user',
      subject: '42',
      metric: 'requests',
      window: 'hour',
      amount: 10,
      mode: 'hard',
    });
    const other = await t.secondInstance();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ask(i % 2 ? other : t.app, key, { user_id: '42' })),
    );
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect(answers.filter((res) => res.json<Allowance>().allowed)).toHaveLength(10);
  });

  it.runIf(dialect === 'postgres')(
    'counts in memory while alone, and an instance arriving counts on from what it counted',
    async () => {
      clock = START;
      const key = await allowanceKey();
      await createLimit({
        scope: 'user',
        subject: '43',
        metric: 'requests',
        window: 'hour',
        amount: 10,
        mode: 'hard',
      });
      await counting(t.app, 'memory');
      for (let i = 0; i < 7; i++) expect((await decide(key, { user_id: '43' })).allowed).toBe(true);
      const other = await t.secondInstance();
      await counting(other, 'database');
      expect(t.app.services.allowance.countsWhere).toBe('database');
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => ask(i % 2 ? other : t.app, key, { user_id: '43' })),
      );
      expect(answers.every((res) => res.statusCode === 200)).toBe(true);
      expect(answers.filter((res) => res.json<Allowance>().allowed)).toHaveLength(3);
    },
  );

  it.runIf(dialect === 'postgres')(
    'admits exactly as many with checks under way while a second instance arrives',
    async () => {
      clock = START;
      const key = await allowanceKey();
      await createLimit({
        scope: 'user',
        subject: '44',
        metric: 'requests',
        window: 'hour',
        amount: 20,
        mode: 'hard',
      });
      await counting(t.app, 'memory');
      let joined = false;
      const joining = t.secondInstance().then(async (other) => {
        await counting(other, 'database');
        joined = true;
        return other;
      });
      // Checks keep arriving at the first while it lets the second in.
      const answers: ReturnType<typeof ask>[] = [];
      while (!joined) {
        for (let i = 0; i < 3; i++) answers.push(ask(t.app, key, { user_id: '44' }));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const other = await joining;
      for (let i = 0; i < 20; i++) answers.push(ask(i % 2 ? other : t.app, key, { user_id: '44' }));
      const all = await Promise.all(answers);
      expect(all.every((res) => res.statusCode === 200)).toBe(true);
      expect(all.filter((res) => res.json<Allowance>().allowed)).toHaveLength(20);
    },
  );

  it('a check refused by one request limit counts towards none of the others, and names the one that was full', async () => {
    clock = START;
    const key = await allowanceKey();
    const chat = await createLimit({
      scope: 'each_chat',
      metric: 'requests',
      window: 'minute',
      amount: 5,
      mode: 'hard',
    });
    const user = await createLimit({
      scope: 'each_user',
      metric: 'requests',
      window: 'hour',
      amount: 3,
      mode: 'hard',
    });
    const ask = (userId: string) => decide(key, { chat_id: '-31', user_id: userId });
    for (let i = 0; i < 3; i++) expect((await ask('71')).allowed).toBe(true);
    // Parallel, so on PostgreSQL they are taken in one group (one statement).
    const refused = await Promise.all([ask('71'), ask('71')]);
    expect(refused.map((d) => [d.allowed, d.reason, d.limit?.id])).toEqual([
      [false, 'limit_reached', user.id],
      [false, 'limit_reached', user.id],
    ]);
    // The refused checks took nothing of the chat's minute: 2 of its 5 are left.
    const others = await Promise.all([ask('72'), ask('73'), ask('74')]);
    expect(others.filter((d) => d.allowed)).toHaveLength(2);
    expect(others.find((d) => !d.allowed)).toMatchObject({ reason: 'limit_reached', limit: { id: chat.id } });
  });

  it('a check denied by a used-up cost limit leaves the request limits it names as they were', async () => {
    clock = START;
    const key = await allowanceKey();
    const cost = await createLimit({
      scope: 'chat',
      subject: '-51',
      metric: 'cost_usd',
      window: 'day',
      amount: 0.01,
      mode: 'hard',
    });
    const user = await createLimit({
      scope: 'each_user',
      metric: 'requests',
      window: 'hour',
      amount: 1,
      mode: 'hard',
    });
    await ingest(
      t.app,
      key,
      Array.from({ length: 10 }, (_, i) => events.llmCall(START - (i + 1) * MINUTE, { chat_id: '-51' })),
    );
    const denied = await decide(key, { chat_id: '-51', user_id: '81' });
    expect(denied).toMatchObject({ allowed: false, reason: 'limit_reached', limit: { id: cost.id } });
    // Once what the allowance counted is written, the user's one call an hour is still there to take.
    await adminGet(t, '/api/limits');
    expect((await decide(key, { chat_id: '-52', user_id: '81' })).allowed).toBe(true);
    expect(await decide(key, { chat_id: '-53', user_id: '81' })).toMatchObject({
      allowed: false,
      limit: { id: user.id },
    });
  });

  it('a check denied by a used-up cost limit names it, not a request limit another check took ahead', async () => {
    clock = START;
    const key = await allowanceKey();
    // The request limit first: a subject's limits are weighed in the order they were created.
    await createLimit({
      scope: 'chat',
      subject: '-61',
      metric: 'requests',
      window: 'hour',
      amount: 1,
      mode: 'hard',
    });
    const cost = await createLimit({
      scope: 'chat',
      subject: '-61',
      metric: 'cost_usd',
      window: 'day',
      amount: 0.01,
      mode: 'hard',
    });
    await ingest(
      t.app,
      key,
      // Earlier today, before the request limit's hour.
      Array.from({ length: 10 }, (_, i) => events.llmCall(START - 2 * HOUR - i * MINUTE, { chat_id: '-61' })),
    );
    const denial = { allowed: false, reason: 'limit_reached', limit: { id: cost.id } };
    expect(await decide(key, { chat_id: '-61', user_id: '91' })).toMatchObject(denial);
    // Read again (past the snapshot's second) before what the first check took is given back.
    clock = START + 2_000;
    expect(await decide(key, { chat_id: '-61', user_id: '91' })).toMatchObject(denial);
    // Of two used up, the one whose window ends last: its wait is the longest.
    const month = await createLimit({
      scope: 'chat',
      subject: '-61',
      metric: 'tokens',
      window: 'month',
      amount: 1,
      mode: 'hard',
    });
    clock = START + 4_000;
    const later = await decide(key, { chat_id: '-61', user_id: '91' });
    expect(later).toMatchObject({ allowed: false, limit: { id: month.id } });
    expect(later.retry_after_seconds).toBeGreaterThan(10 * 24 * 3600);
  });

  it('a chat’s own limit replaces the each-chat default of the same metric and window', async () => {
    clock = START;
    const key = await allowanceKey();
    await createLimit({ scope: 'each_chat', metric: 'requests', window: 'hour', amount: 1, mode: 'hard' });
    await createLimit({
      scope: 'chat',
      subject: '-5',
      metric: 'requests',
      window: 'hour',
      amount: 3,
      mode: 'hard',
    });
    const allowed = async (chat: string) => (await decide(key, { chat_id: chat })).allowed;
    expect([await allowed('-5'), await allowed('-5'), await allowed('-5'), await allowed('-5')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect([await allowed('-6'), await allowed('-6')]).toEqual([true, false]);
    const standing = await adminGet<SubjectLimits>(t, '/api/limits/subjects/chat/-5');
    expect(standing.limits).toEqual([expect.objectContaining({ scope: 'chat', amount: 3, used: 3 })]);
    // The default's list shows the chats under it (by the calls admitted), not the one with its own limit.
    const listed = await adminGet<{ limits: Limit[] }>(t, '/api/limits');
    const each = listed.limits.find((limit) => limit.scope === 'each_chat')!;
    expect(each.usage.map((u) => [u.subject, u.used])).toEqual([['-6', 1]]);
  });

  it('previews who is over a limit being written, and keeps the SDK’s copy in step', async () => {
    clock = START;
    const key = await allowanceKey();
    await ingest(t.app, key, [
      ...Array.from({ length: 3 }, () => events.llmCall(START - MINUTE, { chat_id: '-1', cost_usd: 1 })),
      events.llmCall(START - MINUTE, { chat_id: '-2', cost_usd: 0.85 }),
      events.llmCall(START - MINUTE, { chat_id: '-3', cost_usd: 0.1 }),
    ]);
    const headers = await admin();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limits/preview',
      headers,
      payload: { scope: 'each_chat', metric: 'cost_usd', window: 'month', amount: 1, mode: 'hard' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<LimitPreview>();
    expect(preview.over.map((u) => u.subject)).toEqual(['-1']);
    expect(preview.near.map((u) => u.subject)).toEqual(['-2']);
    expect(preview.window_start).toBe('2026-10-31T23:00:00.000Z');
    const limit = await createLimit({
      scope: 'each_chat',
      metric: 'cost_usd',
      window: 'month',
      amount: 1,
      mode: 'hard',
    });
    const snapshot = await t.app.inject({ method: 'GET', url: '/api/bot/limits', headers: key });
    expect(snapshot.json<BotLimitsSnapshot>()).toMatchObject({
      limits: [{ id: limit.id, scope: 'each_chat', subject: null, amount: 1, amount_until: null }],
      rules: [],
      timezone: TZ,
    });
    const usage = await t.app.inject({
      method: 'POST',
      url: '/api/bot/allowance/usage',
      headers: key,
      payload: { chat_ids: ['-1', '-3'] },
    });
    expect(usage.json<BotUsageResponse>().usage).toEqual([
      expect.objectContaining({ limit_id: limit.id, subject: '-1', used: 3, amount: 1 }),
      expect.objectContaining({ limit_id: limit.id, subject: '-3', used: 0.1 }),
    ]);
    const tooMany = await t.app.inject({
      method: 'POST',
      url: '/api/bot/allowance/usage',
      headers: key,
      payload: { chat_ids: Array.from({ length: 501 }, (_, i) => String(i)) },
    });
    expectError(tooMany, 422, 'validation_failed');
  });

  it('finds the chats and users spending far above their own usual, for the alert condition', async () => {
    clock = START;
    const key = await allowanceKey();
    const day = 24 * HOUR;
    await ingest(t.app, key, [
      // A week of $0.10 a day for chat -1, then $3 in the last hour; user 9 is new.
      ...Array.from({ length: 7 }, (_, i) =>
        events.llmCall(START - (i + 1) * day, { chat_id: '-1', cost_usd: 0.1 }),
      ),
      events.llmCall(START - MINUTE, { chat_id: '-1', cost_usd: 3 }),
      events.llmCall(START - 2 * MINUTE, { user_id: '9', cost_usd: 0.5 }),
    ]);
    const spenders = await t.app.services.limits.spenders(START);
    expect(spenders).toEqual(
      expect.arrayContaining([
        { kind: 'chat', subject: '-1', spent: 3, usual: expect.closeTo(0.7 / 84, 6) },
        { kind: 'user', subject: '9', spent: 0.5, usual: 0 },
      ]),
    );
  });

  it('keeps at most LIMITS_LIMITS of limits and of bans and allowlist entries, also under parallel creates', async () => {
    clock = START;
    const headers = await admin();
    const at = new Date(START).toISOString();
    const fill = async (table: 'limits' | 'access_rules', count: number) => {
      const rows = Array.from({ length: count }, (_, i) =>
        table === 'limits'
          ? {
              ...{ scope: 'chat' as const, subject: `-100${i}`, metric: 'requests' as const },
              ...{ window: 'hour' as const, amount: 5, mode: 'hard' as const, raise_amount: null },
              ...{ raise_until: null, note: '', created_at: at, created_by: null, updated_at: at },
              updated_by: null,
            }
          : {
              ...{ action: 'ban' as const, subject_kind: 'user' as const, subject: String(1000 + i) },
              ...{ reason: 'filled', expires_at: null, created_at: at, created_by: null },
            },
      );
      for (let from = 0; from < rows.length; from += 1000) {
        await t.app.db
          .insertInto(table)
          .values(rows.slice(from, from + 1000) as never)
          .execute();
      }
    };
    const parallel = (url: string, payload: (i: number) => Record<string, unknown>) =>
      Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.app.inject({ method: 'POST', url, headers, payload: payload(i) }),
        ),
      );
    const count = async (table: 'limits' | 'access_rules') =>
      Number(
        (
          await t.app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    await fill('limits', LIMITS_LIMITS.limitsMax - 3);
    const limits = await parallel('/api/limits', (i) => ({
      ...{ scope: 'user', subject: String(500 + i), metric: 'tokens', window: 'day' },
      ...{ amount: 100, mode: 'hard' },
    }));
    expect(limits.map((res) => res.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(
      expectError(
        limits.find((res) => res.statusCode === 409)!,
        409,
      ).detail,
    ).toBe('Lumi keeps at most 20,000 limits; delete some first');
    expect(await count('limits')).toBe(LIMITS_LIMITS.limitsMax);
    const limitsPage = await adminGet<LimitListResponse>(t, '/api/limits?limit=200');
    expect(limitsPage.limits).toHaveLength(200);
    expect(limitsPage).toMatchObject({ next_cursor: limitsPage.limits.at(-1)!.id, total: 20_000 });

    await fill('access_rules', LIMITS_LIMITS.rulesMax - 2);
    const rules = await parallel('/api/limits/access-rules', (i) => ({
      ...{ action: 'allow', subject_kind: 'chat', subject: `-200${i}`, reason: 'a partner' },
    }));
    expect(rules.map((res) => res.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(
      expectError(
        rules.find((res) => res.statusCode === 409)!,
        409,
      ).detail,
    ).toBe('Lumi keeps at most 100,000 bans and allowlist entries; delete some first');
    expect(await count('access_rules')).toBe(LIMITS_LIMITS.rulesMax);
    // Listed a page at a time, newest first.
    const rulesPage = await adminGet<AccessRuleListResponse>(t, '/api/limits/access-rules?limit=200');
    expect(rulesPage.rules).toHaveLength(200);
    expect(rulesPage.rules[0]!.reason).toBe('a partner');
    expect(rulesPage).toMatchObject({ next_cursor: rulesPage.rules.at(-1)!.id, total: 100_000 });
    const older = await adminGet<AccessRuleListResponse>(
      t,
      `/api/limits/access-rules?limit=200&cursor=${rulesPage.next_cursor}`,
    );
    expect(older.rules[0]!.id).toBeLessThan(rulesPage.next_cursor!);
    const tooMany = await t.app.inject({ method: 'GET', url: '/api/limits/access-rules?limit=201', headers });
    expect(tooMany.statusCode).toBe(422);
  });

  it('lists the limits a page at a time, newest first, and says how many there are', async () => {
    clock = START;
    const made = [];
    for (const subject of ['-101', '-102', '-103']) {
      made.push(
        await createLimit({
          scope: 'chat',
          subject,
          metric: 'requests',
          window: 'hour',
          amount: 5,
          mode: 'hard',
        }),
      );
    }
    const first = await adminGet<LimitListResponse>(t, '/api/limits?limit=2');
    expect(first.limits.map((limit) => limit.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first).toMatchObject({ next_cursor: made[1]!.id, total: 3 });
    const second = await adminGet<LimitListResponse>(t, `/api/limits?limit=2&cursor=${first.next_cursor}`);
    expect(second.limits.map((limit) => limit.id)).toEqual([made[0]!.id]);
    expect(second).toMatchObject({ next_cursor: null, total: 3 });
    const headers = await admin();
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'cursor=-1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/limits?${query}`, headers });
      expect(res.statusCode, query).toBe(422);
    }
  });

  it('checks what it is given, audits every change, and answers races with 409', async () => {
    clock = START;
    const headers = await admin();
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/limits', headers, payload });
    const fieldOf = (res: Awaited<ReturnType<typeof post>>) =>
      expectError(res, 422, 'validation_failed').errors!.map((e) => `${e.path}: ${e.message}`);
    const base = { metric: 'cost_usd', window: 'day', amount: 5, mode: 'hard' };
    expect(fieldOf(await post({ ...base, scope: 'chat' }))).toEqual([
      'subject: Name the chat, user or feature this limit is on',
    ]);
    expect(fieldOf(await post({ ...base, scope: 'chat', subject: 'abc' }))[0]).toMatch(/Telegram chat id/);
    expect(fieldOf(await post({ ...base, scope: 'each_chat', raise_amount: 10 }))[0]).toMatch(
      /raise needs both/,
    );
    expect(fieldOf(await post({ ...base, scope: 'each_chat', amount: -1 }))[0]).toMatch(/above 0/);
    expect(fieldOf(await post({ ...base, scope: 'feature', subject: 'x', window: 'minute' }))[0]).toMatch(
      /counts requests/,
    );
    const raised = { raise_amount: 10.5, raise_until: new Date(START + HOUR).toISOString() };
    expect(fieldOf(await post({ ...base, scope: 'each_user', metric: 'requests', ...raised }))).toEqual([
      'raise_amount: A number of requests must be a whole number',
    ]);
    expect(fieldOf(await post({ ...base, scope: 'feature', subject: 'f'.repeat(65) }))).toEqual([
      'subject: At most 64 characters',
    ]);
    expect(fieldOf(await post({ ...base, scope: 'each_chat', note: 'n'.repeat(501) }))).toEqual([
      'note: At most 500 characters',
    ]);
    expect(fieldOf(await post({ ...base, scope: 'each_user', metric: 'tokens', amount: 0.5 }))).toEqual([
      'amount: A number of tokens must be a whole number',
    ]);
    // The smallest number JSON can carry is no limit of dollars anyone shows: it would read "$0.00".
    expect(fieldOf(await post({ ...base, scope: 'each_chat', amount: 5e-324 }))).toEqual([
      'amount: Must be at least $0.000001, the smallest amount of dollars Lumi shows',
    ]);
    expect(fieldOf(await post({ ...base, scope: 'each_chat', note: 'safe \u202Eevil' }))).toEqual([
      'note: Remove the text-direction control (found U+202E): it makes the text read in another order than it was written',
    ]);
    const rule = { action: 'ban', subject_kind: 'chat', subject: '-100' };
    const ruleFields = async (payload: Record<string, unknown>) =>
      fieldOf(await t.app.inject({ method: 'POST', url: '/api/limits/access-rules', headers, payload }));
    expect(await ruleFields(rule)).toEqual(['reason: Give a reason, so the next operator knows why']);
    expect(await ruleFields({ ...rule, reason: 'x'.repeat(501) })).toEqual([
      'reason: At most 500 characters',
    ]);
    expect((await ruleFields({ ...rule, reason: 5 }))[0]).not.toMatch(/Give a reason/);
    expect(await ruleFields({ ...rule, reason: 'spam \u2067\u05E9' })).toEqual([
      'reason: Remove the text-direction control (found U+2067): it makes the text read in another order than it was written',
    ]);
    const races = await Promise.all(Array.from({ length: 5 }, () => post({ ...base, scope: 'each_user' })));
    expect(races.map((res) => res.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const res of races.filter((r) => r.statusCode === 409)) {
      expect(expectError(res, 409).detail).toMatch(/There is a limit on that subject/);
    }
    const created = races.find((r) => r.statusCode === 201)!.json<Limit>();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/limits/${created.id}`,
      headers,
      payload: { ...base, scope: 'each_user', amount: 7 },
    });
    expect(put.json<Limit>()).toMatchObject({ amount: 7, updated_by: 'admin' });
    const removed = await Promise.all(
      Array.from({ length: 3 }, () =>
        t.app.inject({ method: 'DELETE', url: `/api/limits/${created.id}`, headers }),
      ),
    );
    expect(removed.map((r) => r.statusCode).sort()).toEqual([200, 404, 404]);
    const audit = await adminGet<{ logs: AuditLog[] }>(t, '/api/admin/audit-logs?resource_type=limit');
    expect(audit.logs.map((log) => log.action)).toEqual(['limit.deleted', 'limit.updated', 'limit.created']);
  });

  it('lets viewers read, operators write, and only allowance keys ask', async () => {
    clock = START;
    const viewer = await t.signInAs(['viewer'], 'vera');
    const operator = await t.signInAs(['operator'], 'otto');
    const payload = { scope: 'each_chat', metric: 'requests', window: 'hour', amount: 5, mode: 'hard' };
    expect((await t.app.inject({ method: 'GET', url: '/api/limits', headers: viewer.auth })).statusCode).toBe(
      200,
    );
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/limits', headers: viewer.auth, payload }),
      403,
    );
    await createLimit(payload as LimitInput, operator.auth);
    const ingestOnly = await botKey(t, ['ingest:write']);
    expectError(await ask(t.app, ingestOnly, { chat_id: '-1' }), 403);
    expectError(await ask(t.app, await allowanceKey(), { chat_id: 'x' }), 422, 'validation_failed');
    expectError(await ask(t.app, viewer.auth, { chat_id: '-1' }), 403);
  });
});
