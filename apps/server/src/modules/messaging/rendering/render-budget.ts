import { MESSAGING_LIMITS } from '@lumi/contract';
import { ServiceUnavailableError, ValidationError } from '../../../lib/errors.js';

/**
 * Bounds on one rendering (docs/bot-developers/deliveries.md, "Rendering limits"; engineering guide 16), so
 * that no template and data a client can send holds the event loop: nested `{{#each}}` over a 200-item list
 * once took 4.2 s and built 7.96 MB. Handlebars runs synchronously, so the budget is checked while it works:
 * on every loop iteration and every substituted value. Time counts the thread's CPU time, not the wall clock,
 * so a normal message is never refused because other processes share the machine.
 */
export const RENDER_LIMITS = {
  /** `{{…}}` expressions in one template: compiling costs Handlebars about 60 µs each. */
  expressions: 1_000,
  /** Raw output, markup included: Telegram's 4,096 characters after entities, with room for the markup. */
  outputChars: MESSAGING_LIMITS.telegramTextMax * 4,
  /** Iterations of every {{#each}} of one rendering together. */
  iterations: 10_000,
  /**
   * CPU time of the template's execution (its compilation is bounded by the expression count): the work
   * the template makes, which a loaded machine does not change.
   */
  cpuMilliseconds: 25,
  /**
   * Wall time after which a rendering still within its CPU time is given up because the machine is too
   * busy: a temporary refusal (503 with Retry-After), never the template's fault.
   */
  wallMilliseconds: 2_000,
} as const;
export type RenderLimits = typeof RENDER_LIMITS;

const fmt = (n: number) => n.toLocaleString('en');

/** A rendering stopped at a limit: 422, naming the limit. */
export class RenderLimitError extends ValidationError {
  constructor(message: string) {
    super([{ path: 'template_content', message }], message);
  }
}

/** How long a caller should wait before asking again after a rendering was given up for load. */
export const RENDER_RETRY_AFTER_SECONDS = 2;

/**
 * A rendering given up only because the machine was busy: 503 with Retry-After, so a caller (a bot, a
 * schedule's run) tries the same request again instead of taking it for a broken template.
 */
export class RenderBusyError extends ServiceUnavailableError {
  constructor(message = 'The server is too busy to render the message now; try again in a moment.') {
    super(message, RENDER_RETRY_AFTER_SECONDS);
  }
}

/** Refuses a template with more expressions than RENDER_LIMITS allows, before Handlebars compiles it. */
export function checkExpressionCount(content: string, limit: number = RENDER_LIMITS.expressions): void {
  let count = 0;
  for (let at = content.indexOf('{{'); at !== -1; at = content.indexOf('{{', at + 2)) {
    count += 1;
    if (count > limit) {
      throw new RenderLimitError(
        `The template has more than ${fmt(limit)} {{…}} expressions; split it into shorter messages.`,
      );
    }
  }
}

export interface RenderClocks {
  /** Wall time, ms. */
  wall: () => number;
  /** This thread's CPU time, ms; wall time where the platform has no per-thread clock. */
  cpu: () => number;
}

const wallClock = performance.now.bind(performance);

/** Reads of the CPU clock are made at most this often (wall ms): each is a small system call. */
const CPU_READ_EVERY_MS = 1;

export class RenderBudget {
  private iterations = 0;
  private valueChars = 0;
  /** Set at the first check: Handlebars compiles a template on its first call, before running it. */
  private started: { wall: number; cpu: number } | undefined;
  private lastCpuRead = 0;

  constructor(
    private readonly limits: RenderLimits = RENDER_LIMITS,
    private readonly clocks: RenderClocks = { wall: wallClock, cpu: wallClock },
  ) {}

  /** One more loop iteration. */
  iterate(): void {
    this.iterations += 1;
    if (this.iterations > this.limits.iterations) {
      throw new RenderLimitError(
        `The template ran more than ${fmt(this.limits.iterations)} loop iterations ({{#each}}); rendering was stopped. Loop over shorter lists.`,
      );
    }
    this.checkTime();
  }

  /** A value substituted into the message. */
  value(text: string): void {
    this.valueChars += text.length;
    this.checkOutput(this.valueChars);
    this.checkTime();
  }

  /** Output built so far by one block (a loop's iterations together), or the whole message. */
  checkOutput(chars: number): void {
    if (chars > this.limits.outputChars) {
      throw new RenderLimitError(
        `The message passed ${fmt(this.limits.outputChars)} characters while rendering (Telegram takes ${fmt(MESSAGING_LIMITS.telegramTextMax)}); rendering was stopped. Check loops ({{#each}}) over long lists.`,
      );
    }
  }

  /**
   * Wall time is cheap to read and never less than CPU time, so the CPU clock is read only once the wall
   * time alone has passed the CPU limit.
   */
  private checkTime(): void {
    const wall = this.clocks.wall();
    if (!this.started) {
      this.started = { wall, cpu: this.clocks.cpu() };
      this.lastCpuRead = wall;
      return;
    }
    const elapsed = wall - this.started.wall;
    if (elapsed <= this.limits.cpuMilliseconds || wall - this.lastCpuRead < CPU_READ_EVERY_MS) return;
    this.lastCpuRead = wall;
    if (this.clocks.cpu() - this.started.cpu > this.limits.cpuMilliseconds) {
      throw new RenderLimitError(
        `Rendering took longer than ${this.limits.cpuMilliseconds} ms and was stopped; simplify the template or send less data.`,
      );
    }
    if (elapsed > this.limits.wallMilliseconds) throw new RenderBusyError();
  }
}
