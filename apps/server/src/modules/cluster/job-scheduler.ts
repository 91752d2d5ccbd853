import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { acquireLease, markFinished, markStarted, releaseLeases } from './job-leases.repository.js';

/** A periodic job that exactly one instance of the cluster runs at a time. */
export interface JobDefinition {
  name: string;
  /** How often the job runs, counted from its last start on any instance. */
  intervalMs: number;
  run(): Promise<unknown>;
}

/** LUMI_JOB_LEASE_SECONDS by default: how long a lease outlives its holder's last renewal. */
export const JOB_LEASE_SECONDS_DEFAULT = 15;

interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  debug(details: object, message: string): void;
}

/**
 * Runs periodic jobs once across however many instances share the database. Every instance checks each job
 * every third of the lease (or half the shortest job interval, when that is shorter): it takes the job's lease when it is free (or renews its own) in one statement,
 * and the holder starts the job when its interval has passed since the last start, wherever that was. A
 * holder that stops releases its leases, so another instance takes over at its next check; one that dies
 * (kill -9, lost network) is replaced when its lease expires. Instances' clocks must agree to well within
 * the lease (NTP).
 */
export class JobScheduler {
  private readonly jobs: JobDefinition[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    /** This instance's name, as the leases record it. */
    readonly instanceId: string,
    private readonly log: Logger,
    private readonly leaseMs = JOB_LEASE_SECONDS_DEFAULT * 1000,
  ) {}

  add(job: JobDefinition): void {
    this.jobs.push(job);
  }

  /** The jobs whose lease this instance held at its last check. */
  leading(): string[] {
    return [...this.held].sort();
  }

  /**
   * How often this instance checks its jobs: every third of the lease, so a lease is renewed well before it
   * runs out, and at least twice per interval of the most frequent job, so a job of a 1 s interval runs
   * about every second (and another instance takes a stopped one's job over within one interval).
   */
  checkEveryMs(): number {
    const shortest = Math.min(...this.jobs.map((job) => job.intervalMs));
    return Math.max(250, Math.floor(Math.min(this.leaseMs / 3, shortest / 2)));
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.checkEveryMs());
    this.timer.unref();
    void this.tick();
  }

  /** Stops checking, waits for the jobs running here to finish, then releases this instance's leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    await Promise.all(this.running.values());
    try {
      await releaseLeases(this.db, this.instanceId);
      this.held.clear();
    } catch (error) {
      this.log.warn({ err: error }, 'could not release the job leases; they expire by themselves');
    }
  }

  private tick(): Promise<void> {
    if (this.ticking || this.stopped) return this.ticking ?? Promise.resolve();
    this.ticking = this.checkAll().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async checkAll(): Promise<void> {
    for (const job of this.jobs) {
      if (this.stopped) return;
      try {
        await this.check(job);
      } catch (error) {
        this.held.delete(job.name);
        this.log.warn({ err: error, job: job.name }, 'could not check a job lease');
      }
    }
  }

  private async check(job: JobDefinition): Promise<void> {
    const now = this.now();
    const lease = await acquireLease(this.db, {
      name: job.name,
      holder: this.instanceId,
      now: isoTime(now),
      expiresAt: isoAfter(this.leaseMs, now),
    });
    if (!lease) {
      if (this.held.delete(job.name)) this.log.info({ job: job.name }, 'job lease moved to another instance');
      return;
    }
    if (!this.held.has(job.name)) {
      this.held.add(job.name);
      this.log.info(
        { job: job.name, instance: this.instanceId },
        'job lease taken: this instance runs the job',
      );
    }
    if (this.running.has(job.name)) return;
    const lastRun = lease.last_run_at ? Date.parse(lease.last_run_at) : null;
    // A last start in the future (a clock stepped back) counts as due rather than stalling the job.
    if (lastRun !== null && now - lastRun < job.intervalMs && lastRun <= now) return;
    if (!(await markStarted(this.db, job.name, this.instanceId, isoTime(now)))) return;
    const run = this.run(job).finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
  }

  private async run(job: JobDefinition): Promise<void> {
    const started = performance.now();
    let error: string | null = null;
    try {
      const result = await job.run();
      this.log.debug({ job: job.name, instance: this.instanceId, result }, 'job ran');
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      this.log.warn({ err: failure, job: job.name }, 'job failed');
    }
    await markFinished(this.db, job.name, { durationMs: performance.now() - started, error }).catch(
      (failure: unknown) => this.log.warn({ err: failure, job: job.name }, 'could not record a job run'),
    );
  }
}
