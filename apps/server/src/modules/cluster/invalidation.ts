import pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { notifyChannel } from '../../db/signals.js';

/**
 * What an instance keeps in memory and must forget when the data under it changes:
 * - `access`: signed-in principals (sign-out, password change, user, role and session changes);
 * - `telemetry`: dashboard answers (ingestion, retention, budget and price changes);
 * - `telemetry-history`: the settled hours' part of long-range answers
 *   (modules/telemetry-store/settled-hours.ts: events older than the current hour, retention, folding);
 * - `limits`: the limits and access rules the allowance decides by (modules/limits/limit-book.ts);
 * - `api-keys`: the bots' API keys checked (a key revoked, its content settings changed).
 */
export const INVALIDATION_TOPICS = [
  'access',
  'telemetry',
  'telemetry-history',
  'limits',
  'api-keys',
] as const;
export type InvalidationTopic = (typeof INVALIDATION_TOPICS)[number];

/**
 * Tells every instance to forget what a committed change made stale. `publish` runs the topic's handlers
 * here at once and resolves once the other instances have been told (never rejects: the caches' short
 * lifetimes are the safety net when telling fails). Callers publish after their transaction commits.
 */
export interface Invalidation {
  publish(topic: InvalidationTopic): Promise<void>;
  /**
   * `handler` has `fromElsewhere` true when the change may have been another instance's (told through the
   * database, or missed while not listening).
   */
  on(topic: InvalidationTopic, handler: (fromElsewhere: boolean) => void): void;
  close(): Promise<void>;
}

/** One process (SQLite, tests): handlers run in-process, nothing else to tell. */
export class LocalInvalidation implements Invalidation {
  private readonly handlers = new Map<InvalidationTopic, ((fromElsewhere: boolean) => void)[]>();

  on(topic: InvalidationTopic, handler: (fromElsewhere: boolean) => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  publish(topic: InvalidationTopic): Promise<void> {
    this.run(topic);
    return Promise.resolve();
  }

  async close(): Promise<void> {}

  protected run(topic: InvalidationTopic, fromElsewhere = false): void {
    for (const handler of this.handlers.get(topic) ?? []) handler(fromElsewhere);
  }

  /** Every topic at once: after notifications may have been missed. */
  protected runAll(): void {
    for (const topic of INVALIDATION_TOPICS) this.run(topic, true);
  }
}

/** The PostgreSQL channel every instance listens on. */
export const INVALIDATION_CHANNEL = 'lumi_invalidate';
const RECONNECT_MS = 1000;

interface Logger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * Several instances on one PostgreSQL database: a change is published with NOTIFY on the shared database
 * and every instance LISTENs on its own connection. PostgreSQL delivers a notification to every listener,
 * in commit order, within milliseconds. When the listening connection drops, the instance reconnects and
 * forgets everything, since it may have missed notifications meanwhile.
 */
export class PostgresInvalidation extends LocalInvalidation {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Set while a lost connection is being replaced: notifications may have been missed. */
  private missed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connectionString: string,
    /** This instance's name: its own notifications are not handled twice. */
    private readonly instanceId: string,
    private readonly log: Logger,
  ) {
    super();
  }

  /** Resolves once listening (or once the first attempt failed; it keeps retrying in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  override async publish(topic: InvalidationTopic): Promise<void> {
    this.run(topic);
    try {
      const payload = JSON.stringify({ topic, from: this.instanceId });
      await notifyChannel(this.db, INVALIDATION_CHANNEL, payload);
    } catch (error) {
      this.log.warn({ err: error, topic }, 'could not tell the other instances about a change');
    }
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => this.receive(message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.missed) {
      this.missed = false;
      this.log.info({}, 'listening for changes of other instances again');
      this.runAll();
    }
  }

  private receive(payload: string | undefined): void {
    let message: { topic?: unknown; from?: unknown };
    try {
      message = JSON.parse(payload ?? '') as typeof message;
    } catch {
      return;
    }
    if (message.from === this.instanceId) return;
    const topic = INVALIDATION_TOPICS.find((t) => t === message.topic);
    if (topic) this.run(topic, true);
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.closed || (this.client !== client && this.client !== null)) return;
    if (this.client === client) this.client = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.retry) return;
    this.missed = true;
    this.log.warn({ err: error }, "lost the connection that hears of other instances' changes; reconnecting");
    // Whatever is cached may miss a change from now on: forget it, and again once listening.
    this.runAll();
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }
}
