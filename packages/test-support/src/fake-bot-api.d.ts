/** Telegram's overall limit for a bot: messages a second. */
export const TELEGRAM_PER_SECOND: number;
/** Milliseconds since the epoch with sub-millisecond precision, for spacing figures. */
export function preciseNow(): number;

export interface BotApiRequest {
  token: string;
  method: string;
  body: Record<string, unknown>;
}

/** A queued answer: a status and a body, no answer at all, or an HTML error page. */
export type BotApiReply = { status: number; body: unknown } | 'hang' | 'garbage';

/** A Bot API refusal: {ok: false, error_code, description, parameters?}. */
export interface BotApiRefusal {
  status: number;
  body: { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };
}

export function tooManyRequests(retryAfter: number): BotApiRefusal;
export function badRequest(description: string): BotApiRefusal;
export function forbidden(description?: string): BotApiRefusal;
export function serverError(status?: number, description?: string): BotApiRefusal;

export interface AcceptedMessage {
  at: number;
  chat_id: string;
  text: string;
}

export interface RefusedMessage {
  at: number;
  chat_id: string;
  error_code: number;
  description: string;
  retry_after?: number;
  /** It came within an earlier 429's retry_after. */
  flood_wait: boolean;
}

export interface FakeBotApiOptions {
  host?: string;
  port?: number;
  /** Refuse a message with 429 when TELEGRAM_PER_SECOND were accepted within the last second. */
  limit?: boolean;
  /** Asked about the n-th sendMessage (from 1); null to go on, or a refusal to answer instead. */
  failures?: (message: { chat_id: string; text: string }, n: number) => BotApiRefusal | null;
  /** The receiver's clock (ms since the epoch); Date.now by default. */
  clock?: () => number;
}

export class FakeBotApi {
  static start(options?: FakeBotApiOptions): Promise<FakeBotApi>;
  private constructor();
  readonly url: string;
  readonly requests: BotApiRequest[];
  /** When each request arrived (by `clock`), in the order of `requests`. */
  readonly arrivals: number[];
  readonly accepted: AcceptedMessage[];
  readonly refused: RefusedMessage[];
  readonly counts: {
    requests: number;
    byMethod: Record<string, number>;
    rateLimited: number;
    refusedOnPurpose: number;
  };
  /** How long every answer takes after the request arrived (a slow Telegram). */
  delayMs: number;
  /** How long a request takes to arrive after this server got it, drawn for each. */
  transitMs: (() => number) | null;
  /** The receiver's clock (ms since the epoch); a test with a clock of its own sets it. */
  clock: () => number;
  /** Called as each request arrives, before it is answered (e.g. to move a test's clock on). */
  onArrival: ((request: BotApiRequest) => void) | null;
  /** The next requests get these answers, in order; the ones after them are answered as usual. */
  respond(...replies: BotApiReply[]): void;
  /** Forgets the requests, queued answers and settings; message ids start again at 1001. */
  reset(): void;
  methods(): string[];
  /** Each sendMessage that arrived: its chat, text and when (by `clock`), in the order they arrived. */
  messages(): AcceptedMessage[];
  /** Resolves once `count` sendMessage requests have arrived in all (since the last reset). */
  messagesArrived(count: number): Promise<void>;
  close(): Promise<void>;
}
