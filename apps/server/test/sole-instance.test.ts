import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SoleInstance, type SoleMode } from '../src/modules/cluster/sole-instance.js';
import { eventually } from './cluster-process.js';

/**
 * Whether an instance is the only one on a PostgreSQL database (modules/cluster/sole-instance.ts), with
 * instances made here on TEST_DATABASE_URL under a lock name of each test's own. They poll every 10 ms.
 */
const url = process.env.TEST_DATABASE_URL;
const POLL_MS = 10;
const quiet = { warn: () => undefined, info: () => undefined };

describe.skipIf(!url)('SoleInstance', () => {
  let name: string;
  const started: SoleInstance[] = [];
  /** Each instance's mode as its last change left it, and the order of the changes. */
  const modes = new Map<string, SoleMode>();
  const changes: string[] = [];
  const violations: string[] = [];

  afterEach(async () => {
    await Promise.all(started.splice(0).map((one) => one.close()));
    modes.clear();
    changes.length = 0;
    violations.length = 0;
  });

  /**
   * An instance named `who`, whose changes are recorded; `change` may make one slow or fail. A change to
   * `alone` while another instance is not `none`, or to `shared` while another is `alone`, is a violation.
   */
  function instance(who: string, change: (mode: SoleMode) => Promise<void> = async () => undefined) {
    modes.set(who, 'none');
    const session = () => new pg.Client({ connectionString: url, application_name: `${name}:${who}` });
    const one = new SoleInstance(
      session,
      name,
      async (mode) => {
        const others = [...modes].filter(([other]) => other !== who).map(([, m]) => m);
        if (mode === 'alone' && others.some((m) => m !== 'none'))
          violations.push(`${who} alone beside ${others}`);
        if (mode === 'shared' && others.includes('alone')) violations.push(`${who} shared beside one alone`);
        changes.push(`${who}:${mode}`);
        await change(mode);
        modes.set(who, mode);
        changes.push(`${who}:${mode} done`);
      },
      quiet,
      POLL_MS,
    );
    started.push(one);
    one.start();
    return one;
  }

  const until = (what: () => boolean) =>
    eventually(() => (what() ? true : undefined), 10_000, what.toString());

  it('the first is alone; one arriving is let in once the first has changed to shared; the last left is alone again', async () => {
    name = `test:sole:${randomBytes(4).toString('hex')}`;
    const a = instance(
      'a',
      (mode) => new Promise((resolve) => setTimeout(resolve, mode === 'shared' ? 50 : 0)),
    );
    await until(() => a.current === 'alone');
    const b = instance('b');
    await until(() => b.current === 'shared');
    expect(a.current).toBe('shared');
    expect(changes).toEqual([
      'a:shared',
      'a:shared done',
      'a:alone',
      'a:alone done',
      'a:shared',
      'a:shared done',
      'b:shared',
      'b:shared done',
    ]);
    // Neither is alone while the other is there.
    await new Promise((resolve) => setTimeout(resolve, 10 * POLL_MS));
    expect([a.current, b.current]).toEqual(['shared', 'shared']);
    await b.close();
    expect(b.current).toBe('none');
    await until(() => a.current === 'alone');
    expect(violations).toEqual([]);
  });

  it('one that cannot change to shared stays alone, and the one arriving waits until it can', async () => {
    name = `test:sole:${randomBytes(4).toString('hex')}`;
    let refusals = 0;
    let refuse = true;
    const a = instance('a', async (mode) => {
      if (mode === 'shared' && changes.includes('a:alone done') && refuse) {
        refusals += 1;
        throw new Error('could not write the counts');
      }
    });
    await until(() => a.current === 'alone');
    const b = instance('b');
    await until(() => refusals >= 3);
    expect([a.current, b.current]).toEqual(['alone', 'none']);
    refuse = false;
    await until(() => b.current === 'shared');
    expect(a.current).toBe('shared');
    expect(violations).toEqual([]);
  });

  it('one whose session ends stops at its next poll and comes back in a new one', async () => {
    name = `test:sole:${randomBytes(4).toString('hex')}`;
    const a = instance('a');
    await until(() => a.current === 'alone');
    const b = instance('b');
    await until(() => b.current === 'shared' && a.current === 'shared');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [`${name}:a`],
      );
    } finally {
      await admin.end();
    }
    await until(() => changes.includes('a:none done'));
    // Back in a new session: both share again. (Whether b was alone meanwhile depends on how soon a saw
    // its session end, which is a matter of timing: docs/operators/limits.md states that bound.)
    await until(() => a.current === 'shared' && b.current === 'shared');
  });
});
