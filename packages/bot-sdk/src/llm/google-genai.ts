import { startCall, wrapOnce, type CallUsage, type LlmReporting, type WrapOptions } from './report.js';

/**
 * Reporting for the Google Gen AI SDK (`@google/genai`, https://github.com/googleapis/js-genai): each
 * `models.generateContent` and `models.generateContentStream` (and so each `chats` message, which goes
 * through them) is reported as an `llm_call` with provider `gemini`, the model asked for, the tokens of
 * `usageMetadata` (thinking tokens count as output, as they are billed), the latency, the failure and the
 * context's chat, user and feature. The client's `models` object is changed in place; the client is
 * returned.
 */

interface GenerateParams {
  model?: string;
}

/** The parts of a `GoogleGenAI` client the wrapper touches. */
export interface GoogleGenAILike {
  models: {
    generateContent: (params: never) => Promise<unknown>;
    generateContentStream: (params: never) => Promise<AsyncIterable<unknown>>;
  };
}

interface UsageMetadata {
  promptTokenCount?: number;
  toolUsePromptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
}

function usageOf(response: unknown): CallUsage | null {
  const usage = (response as { usageMetadata?: UsageMetadata } | null)?.usageMetadata;
  if (!usage) return null;
  return {
    inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
}

/** "models/gemini-2.0-flash" and "gemini-2.0-flash" are one model, as the price table names it. */
const modelName = (params: GenerateParams | undefined) =>
  String(params?.model ?? 'unknown').replace(/^models\//, '');

export function wrapGoogleGenAI<T extends GoogleGenAILike>(
  client: T,
  reporting: LlmReporting,
  options: WrapOptions = {},
): T {
  return wrapOnce(client, () => wrapModels(client, reporting, options));
}

function wrapModels(client: GoogleGenAILike, reporting: LlmReporting, options: WrapOptions) {
  const models = client.models as unknown as {
    generateContent: (params: GenerateParams) => Promise<unknown>;
    generateContentStream: (params: GenerateParams) => Promise<AsyncIterable<unknown>>;
  };
  const provider = options.provider ?? 'gemini';
  const generate = models.generateContent.bind(models);
  const generateStream = models.generateContentStream.bind(models);

  models.generateContent = async (params) => {
    const call = startCall(reporting, { provider, model: modelName(params), feature: options.feature });
    try {
      const response = await generate(params);
      call.done(usageOf(response));
      return response;
    } catch (error) {
      call.done(null, error);
      throw error;
    }
  };

  models.generateContentStream = async (params) => {
    const call = startCall(reporting, { provider, model: modelName(params), feature: options.feature });
    let stream: AsyncIterable<unknown>;
    try {
      stream = await generateStream(params);
    } catch (error) {
      call.done(null, error);
      throw error;
    }
    // Each chunk carries the usage so far; the last one the whole call's.
    return call.stream(stream, usageOf);
  };
}
