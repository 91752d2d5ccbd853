import { MESSAGING_LIMITS } from '@lumi/contract';
import { ValidationError } from '../../../lib/errors.js';

/**
 * Bounds on one rendering (hardening issue, item 3; engineering guide 16), so that no template and data a
 * client can send holds the event loop: nested `{{#each}}` over a 200-item list once took 4.2 s and built
 * 7.96 MB. Handlebars runs synchronously, so the budget is checked while it works: on every loop
 * iteration and every substituted value.
 */
export const RENDER_LIMITS = {
  /** `{{…}}` expressions in one template: compiling costs Handlebars about 60 µs each. */
  expressions: 1_000,
  /** Raw output, markup included: Telegram's 4,096 characters after entities, with room for the markup. */
  outputChars: MESSAGING_LIMITS.telegramTextMax * 4,
  /** Iterations of every {{#each}} of one rendering together. */
  iterations: 10_000,
  /** Wall time of the template's execution (its compilation is bounded by the expression count). */
  milliseconds: 25,
} as const;

const fmt = (n: number) => n.toLocaleString('en');

/** A rendering stopped at a limit: 422, naming the limit. */
export class RenderLimitError extends ValidationError {
  constructor(message: string) {
    super([{ path: 'template_content', message }], message);
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

export class RenderBudget {
  private iterations = 0;
  private valueChars = 0;
  /** Set at the first check: Handlebars compiles a template on its first call, before running it. */
  private deadline: number | undefined;

  constructor(
    private readonly limits: typeof RENDER_LIMITS = RENDER_LIMITS,
    private readonly clock: () => number = performance.now.bind(performance),
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

  private checkTime(): void {
    const now = this.clock();
    this.deadline ??= now + this.limits.milliseconds;
    if (now > this.deadline) {
      throw new RenderLimitError(
        `Rendering took longer than ${this.limits.milliseconds} ms and was stopped; simplify the template or send less data.`,
      );
    }
  }
}
