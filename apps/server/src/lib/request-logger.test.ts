import Fastify, { type FastifyBaseLogger } from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

/** A Fastify app with the lazy request logger, logging JSON lines into `lines`, with one route that logs. */
async function setup(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream, redact: ['req.headers.authorization'] },
    childLoggerFactory: lazyRequestLogger,
    genReqId: () => 'req-1',
  });
  let logger: FastifyBaseLogger | undefined;
  app.get('/log', (request) => {
    logger = request.log;
    request.log.info({ step: 'info' }, 'an info line');
    request.log.warn({ step: 'warn' }, 'a warning');
    return { ok: true };
  });
  await app.ready();
  return { app, lines, logger: () => logger! };
}

describe('lazyRequestLogger', () => {
  it('logs with the request id, like a child logger, at the levels enabled', async () => {
    const { app, lines } = await setup('warn');
    await app.inject({ method: 'GET', url: '/log' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ reqId: 'req-1', step: 'warn', msg: 'a warning', level: 40 });
  });

  it('keeps Fastify request logging at info: incoming, the route lines and completed, with the id', async () => {
    const { app, lines } = await setup('info');
    await app.inject({ method: 'GET', url: '/log', headers: { authorization: 'Bearer secret' } });
    expect(lines.map((line) => line.msg)).toEqual([
      'incoming request',
      'an info line',
      'a warning',
      'request completed',
    ]);
    expect(lines.every((line) => line.reqId === 'req-1')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('creates no child logger for a request that logs nothing', async () => {
    const { app, logger } = await setup('error');
    const created: unknown[] = [];
    const child = app.log.child.bind(app.log);
    app.log.child = (...args: Parameters<FastifyBaseLogger['child']>) => {
      created.push(args[0]);
      return child(...args);
    };
    await app.inject({ method: 'GET', url: '/log' });
    expect(created).toEqual([]);
    logger().error('now it logs');
    logger().error('and again');
    expect(created).toEqual([{ reqId: 'req-1' }]);
  });

  it('reports and changes the level, and makes children of its own', async () => {
    const { app, lines, logger } = await setup('warn');
    await app.inject({ method: 'GET', url: '/log' });
    expect(logger().level).toBe('warn');
    logger().level = 'debug';
    expect(logger().level).toBe('debug');
    expect(app.log.level).toBe('warn');
    logger().child({ part: 'x' }).debug('from a grandchild');
    expect(lines.at(-1)).toMatchObject({ reqId: 'req-1', part: 'x', msg: 'from a grandchild' });
  });
});
