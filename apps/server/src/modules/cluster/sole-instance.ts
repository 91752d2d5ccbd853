import type pg from 'pg';

/**
 * What an instance may do with what several instances share (docs/operators/postgresql-and-instances.md,
 * "Running several instances"): `alone`, no other instance is on the database, so what they would share may be kept in this
 * one's memory; `shared`, others may be, so it is kept in the database; `none`, this instance is not on
 * it yet, or lost its session, and must not act on it at all.
 */
export type SoleMode = 'alone' | 'shared' | 'none';

interface Logger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * How often an instance alone looks for another knocking, and one sharing tries to be alone; after a failed
 * session, a new one is opened ten times that later.
 */
export const SOLE_POLL_MS = 100;

/**
 * Tells an instance whether it is the only one on a PostgreSQL database, with two session-level advisory
 * locks in a session of its own (postgresql.org/docs/current/explicit-locking.html, "Advisory Locks"):
 * - every instance holds `<name>:present` shared while it acts; one alone holds it exclusively too, which
 *   it can take only while no other session holds it at all;
 * - an instance arriving holds `<name>:knock` shared until it is let in. The one alone tries to take the
 *   knock exclusively every SOLE_POLL_MS; when it cannot, it stops being alone (`change('shared')`, awaited)
 *   and gives the exclusive lock back, and the one knocking gets its shared lock.
 *
 * `change` is called, and awaited, at every change of mode, in order: after the lock that allows the new
 * mode is taken, and before the lock the old one needed is given back. A session that ends (the process
 * killed, the connection lost) gives its locks back at once: its instance learns of it at its next poll
 * and changes to `none`, then opens a new session.
 */
export class SoleInstance {
  private client: pg.Client | null = null;
  private mode: SoleMode = 'none';
  private closed = false;
  private running: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;

  constructor(
    private readonly session: () => pg.Client,
    private readonly name: string,
    private readonly change: (mode: SoleMode) => Promise<void>,
    private readonly log: Logger,
    private readonly pollMs = SOLE_POLL_MS,
  ) {}

  /** Starts knocking; the mode changes in the background from then on. */
  start(): void {
    this.running = this.run();
  }

  /** The mode as of the last change. */
  get current(): SoleMode {
    return this.mode;
  }

  /** Changes to `none`, then ends the session, which gives its locks back. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.running;
    await this.enter('none');
    await this.end();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      try {
        if (!this.client) await this.join();
        else if (this.mode === 'alone') await this.answerKnock();
        else await this.tryAlone();
        await this.pause(this.pollMs);
      } catch (error) {
        if (this.closed) return;
        this.log.warn({ err: error }, 'the session that tells whether this instance is alone failed');
        await this.enter('none').catch(() => undefined);
        await this.end();
        await this.pause(10 * this.pollMs);
      }
    }
  }

  /** Opens the session, knocks until it holds the presence lock shared, and changes to `shared`. */
  private async join(): Promise<void> {
    const client = this.session();
    // A session that fails makes its next statement fail, which run() handles.
    client.on('error', () => undefined);
    this.client = client;
    await client.connect();
    // The one alone holds the knock for a moment as it looks for one.
    while (!(await this.lock(client, 'pg_try_advisory_lock_shared', 'knock'))) {
      if (this.closed) return;
      await this.pause(this.pollMs / 4);
    }
    while (!(await this.lock(client, 'pg_try_advisory_lock_shared', 'present'))) {
      if (this.closed) return;
      await this.pause(this.pollMs / 4);
    }
    await this.lock(client, 'pg_advisory_unlock_shared', 'knock');
    await this.enter('shared');
  }

  /** Sharing: takes the presence lock exclusively if no other instance holds it, and changes to `alone`. */
  private async tryAlone(): Promise<void> {
    const client = this.client!;
    if (!(await this.lock(client, 'pg_try_advisory_lock', 'present'))) return;
    // One knocking has not taken its shared lock yet: it is let in, not kept out.
    if (!(await this.lock(client, 'pg_try_advisory_lock', 'knock'))) {
      await this.lock(client, 'pg_advisory_unlock', 'present');
      return;
    }
    await this.lock(client, 'pg_advisory_unlock', 'knock');
    // Two polls as if still sharing: an instance whose session ended meanwhile learns of it at its next
    // poll and stops, with its statements under way.
    await this.pause(2 * this.pollMs);
    // Still in session (a statement fails otherwise) before anything is kept in memory.
    await client.query('select 1');
    if (this.closed) return;
    await this.enter('alone');
    this.log.info({ lock: this.name }, 'this instance is the only one on the database');
  }

  /** Alone: when another instance knocks, changes to `shared` and gives the exclusive lock back. */
  private async answerKnock(): Promise<void> {
    const client = this.client!;
    if (await this.lock(client, 'pg_try_advisory_lock', 'knock')) {
      await this.lock(client, 'pg_advisory_unlock', 'knock');
      return;
    }
    try {
      await this.enter('shared');
    } catch (error) {
      // Still alone (the change failed, say what it had to write first): the knock is answered next time.
      this.log.warn({ err: error }, 'could not stop being the only instance yet');
      return;
    }
    await this.lock(client, 'pg_advisory_unlock', 'present');
    this.log.info({ lock: this.name }, 'another instance is on the database: sharing with it');
  }

  private async enter(mode: SoleMode): Promise<void> {
    if (mode === this.mode) return;
    await this.change(mode);
    this.mode = mode;
  }

  private async lock(client: pg.Client, fn: string, which: 'present' | 'knock'): Promise<boolean> {
    const { rows } = await client.query<{ done: boolean | null }>(
      `select ${fn}(hashtextextended($1, 0)) as done`,
      [`${this.name}:${which}`],
    );
    return rows[0]?.done !== false;
  }

  private async end(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** Waits `ms`, or less once closing. */
  private pause(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
