/** A request with this header (`429`, `500`, `503` or `529`) is answered with that status and the provider's error body. */
export const FAIL_HEADER: string;
/** A request with this header (`<n>`) is answered with n cached input tokens in its usage. */
export const CACHE_READ_HEADER: string;
/** Anthropic only: a request with this header (`<n>`) reports n tokens written to the prompt cache. */
export const CACHE_WRITE_HEADER: string;

/** The name the API answers a request for `model` with: gpt-4o-mini → gpt-4o-mini-2024-07-18. */
export function answeredModel(model: string): string;

export type StandInProvider = 'openai' | 'anthropic' | 'google';
export type StandInApi =
  | 'chat.completions'
  | 'responses'
  | 'embeddings'
  | 'messages'
  | 'generateContent'
  | 'streamGenerateContent'
  | 'embedContent'
  | 'batchEmbedContents';

export interface StandInUsage {
  /** Every input token, cached ones included (Anthropic's input_tokens + cache reads + cache writes). */
  input: number;
  /** Every output token billed, thinking included (Gemini's candidates + thoughts). */
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface StandInCall {
  provider: StandInProvider;
  api: StandInApi;
  /** The model the request asked for. */
  model: string;
  /** The model the answer named (dated where the API dates it); null for a failure. */
  responseModel: string | null;
  stream: boolean;
  status: number;
  /** The error answer's type: OpenAI's code (else type), Anthropic's error.type, Google's status; null for a success. */
  errorType: string | null;
  /** All zeros for a failure. */
  usage: StandInUsage;
}

export class LlmApiStandIn {
  static start(options?: { host?: string; port?: number }): Promise<LlmApiStandIn>;
  private constructor();
  /** The origin (http://127.0.0.1:PORT): the base URL of the Anthropic and Gemini clients. */
  readonly url: string;
  /** The base URL of the OpenAI clients: `${url}/v1`. */
  readonly openaiBaseUrl: string;
  /** Every call answered, in order (also served as JSON at GET /calls). */
  readonly calls: StandInCall[];
  /** The next `count` model calls fail with `status` (429, 500, 503 or 529), whatever they ask. */
  failNext(count: number, status: number): void;
  /** Forgets the calls and queued failures. */
  reset(): void;
  close(): Promise<void>;
}
