import { afterAll, describe, expect, it } from 'vitest';
import { RenderLimitError } from './render-budget.js';
import { RENDER_POOL_LIMITS, RenderPool } from './render-pool.js';

describe('RenderPool', () => {
  const pool = new RenderPool({ ...RENDER_POOL_LIMITS, maxQueued: 3 });
  afterAll(() => pool.close());

  it('renders in the worker, in order', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) => pool.render('<b>{{n}}</b>', 'HTML', { n }, Date.parse('2026-11-22T12:00:00Z'))),
    );
    expect(results.map((r) => r.rendered)).toEqual(['<b>1</b>', '<b>2</b>', '<b>3</b>']);
  });

  it('answers a limit with a RenderLimitError and goes on', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => i);
    const attack = pool.render('{{#each r}}{{#each ../r}}{{this}}{{/each}}{{/each}}', 'HTML', { r: rows }, 0);
    await expect(attack).rejects.toBeInstanceOf(RenderLimitError);
    expect((await pool.render('ok', 'HTML', {}, 0)).rendered).toBe('ok');
  });

  it('refuses jobs beyond its queue with 429', async () => {
    const jobs = Array.from({ length: 6 }, () => pool.render('{{a}}', 'HTML', { a: 1 }, 0));
    const settled = await Promise.allSettled(jobs);
    const refused = settled.filter((s) => s.status === 'rejected');
    // One runs at once and three wait; the rest are refused.
    expect(refused.length).toBe(2);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 429 });
  });

  it('stops a job that runs too long, replaces its worker and serves the next', async () => {
    const slow = new RenderPool({ ...RENDER_POOL_LIMITS, jobTimeoutMs: 1 });
    try {
      const first = slow.render('{{a}}'.repeat(1000), 'HTML', { a: 1 }, 0);
      await expect(first).rejects.toThrow(/^Rendering took longer than 0.001 s/);
    } finally {
      await slow.close();
    }
    expect((await pool.render('{{a}}', 'HTML', { a: 'after' }, 0)).rendered).toBe('after');
  });
});
