import { startCall, wrapOnce, type CallUsage, type LlmReporting, type WrapOptions } from './report.js';

/**
 * Reporting for the official `openai` client (https://github.com/openai/openai-node): each
 * `chat.completions.create`, `responses.create` and `embeddings.create` is reported as an `llm_call` with
 * the model asked for, the tokens of the answer's `usage`, the latency, the failure and the chat, user and
 * feature of the context the call was made in. The client is changed in place (its resource objects get a
 * `create` of their own) and returned, so everything else it does stays as it was: `withResponse()`,
 * streaming, retries, other providers behind `baseURL`.
 *
 * Streams are reported when they end; their tokens need `stream_options: { include_usage: true }`
 * (chat completions), which OpenAI answers with a last chunk holding the usage.
 */

type AnyFunction = (...args: never[]) => unknown;
interface Creatable {
  create: AnyFunction;
}

/** The parts of an `OpenAI` client the wrapper touches; a real client has them all. */
export interface OpenAILike {
  chat: { completions: Creatable };
  responses?: Creatable;
  embeddings?: Creatable;
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
}

/** Tokens of a chat completion, a response or an embedding (or of a stream's chunk or event). */
function usageOf(value: unknown): CallUsage | null {
  const item = value as { usage?: Usage | null; response?: { usage?: Usage | null } } | null;
  const usage = item?.usage ?? item?.response?.usage;
  if (!usage) return null;
  return {
    inputTokens: usage.prompt_tokens ?? usage.input_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? usage.output_tokens ?? 0,
  };
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';

function wrapCreate(resource: Creatable, reporting: LlmReporting, options: WrapOptions) {
  const original = resource.create.bind(resource) as (
    body: { model?: string },
    ...rest: unknown[]
  ) => unknown;
  const provider = options.provider ?? 'openai';
  resource.create = function create(body: { model?: string }, ...rest: unknown[]) {
    const call = startCall(reporting, {
      provider,
      model: String(body?.model ?? 'unknown'),
      feature: options.feature,
    });
    let result: unknown;
    try {
      result = original(body, ...rest);
    } catch (error) {
      call.done(null, error);
      throw error;
    }
    // The client's APIPromise parses once and hands every `then` the same value, so observing it here
    // changes nothing for the caller, whose `await` (or `withResponse()`) comes after this one.
    void Promise.resolve(result).then(
      (value) => {
        if (!isAsyncIterable(value)) return call.done(usageOf(value));
        const iterate = value[Symbol.asyncIterator].bind(value);
        Object.defineProperty(value, Symbol.asyncIterator, {
          configurable: true,
          value: () => call.stream({ [Symbol.asyncIterator]: iterate }, usageOf)[Symbol.asyncIterator](),
        });
      },
      (error: unknown) => call.done(null, error),
    );
    return result;
  } as AnyFunction;
}

/** Reports every call the client makes; returns the same client. Wrapping twice changes nothing. */
export function wrapOpenAI<T extends OpenAILike>(
  client: T,
  reporting: LlmReporting,
  options: WrapOptions = {},
): T {
  return wrapOnce(client, () => {
    for (const resource of [client.chat.completions, client.responses, client.embeddings]) {
      if (resource && typeof resource.create === 'function') wrapCreate(resource, reporting, options);
    }
  });
}
