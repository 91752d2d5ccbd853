// The stand-in's answers (llm-api-stand-in.js) by API: the body or the server-sent events the provider's API
// reference documents, with the model named and the token usage counted as the provider does; Anthropic's
// and Gemini's here, OpenAI's in llm-api-openai.js. The same request always gets the same answer.
import { answeredModel, nextId, replyOf, textOf, tokensOf, usageOf, vectorOf } from './llm-api-shapes.js';
import { OPENAI_ANSWERS } from './llm-api-openai.js';

export const ANSWERS = {
  ...OPENAI_ANSWERS,
  /** https://docs.anthropic.com/en/api/messages and .../messages-streaming */
  messages({ body, model, stream, cacheRead, cacheWrite }) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const text = [textOf(body.system ?? ''), ...messages.map((m) => textOf(m.content))].join('\n');
    const { input, output } = usageOf(model, text, messages.length);
    const responseModel = answeredModel(model);
    const reply = replyOf(output);
    // Anthropic's input_tokens leave out the cached tokens, which it reports beside them.
    const usage = {
      input_tokens: input,
      cache_creation_input_tokens: cacheWrite,
      cache_read_input_tokens: cacheRead,
      cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
      output_tokens: output,
      service_tier: 'standard',
    };
    const message = {
      id: nextId('msg_01', 30),
      type: 'message',
      role: 'assistant',
      model: responseModel,
      content: [{ type: 'text', text: reply.text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    };
    const recorded = { input: input + cacheRead + cacheWrite, output, cacheRead, cacheWrite };
    if (!stream) return { responseModel, usage: recorded, body: message };
    const event = (type, data) => ({ event: type, data: { type, ...data } });
    return {
      responseModel,
      usage: recorded,
      events: [
        event('message_start', {
          message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        event('ping', {}),
        ...reply.pieces.map((piece) =>
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }),
        ),
        event('content_block_stop', { index: 0 }),
        event('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: output },
        }),
        event('message_stop', {}),
      ],
    };
  },

  generateContent: (request) => gemini(request, false),
  streamGenerateContent: (request) => gemini(request, true),

  /** https://ai.google.dev/api/embeddings#method:-models.embedcontent */
  embedContent({ body, model }) {
    const text = textOf(body.content);
    return {
      responseModel: model,
      usage: { input: Math.max(1, tokensOf(text)), output: 0, cacheRead: 0, cacheWrite: 0 },
      body: { embedding: { values: vectorOf(text, body.outputDimensionality ?? 3072) } },
    };
  },

  batchEmbedContents({ body, model }) {
    const requests = Array.isArray(body.requests) ? body.requests : [];
    const texts = requests.map((r) => textOf(r.content));
    return {
      responseModel: model,
      usage: {
        input: texts.reduce((sum, t) => sum + Math.max(1, tokensOf(t)), 0),
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
      },
      body: {
        embeddings: texts.map((t, i) => ({
          values: vectorOf(t, requests[i].outputDimensionality ?? 3072),
        })),
      },
    };
  },
};

/**
 * https://ai.google.dev/api/generate-content: a GenerateContentResponse, or its chunks as server-sent
 * events. Gemini 2.5 models think unless thinkingConfig.thinkingBudget is 0: thoughtsTokenCount is
 * billed as output beside candidatesTokenCount; promptTokenCount includes cachedContentTokenCount.
 */
function gemini({ body, model, cacheRead }, stream) {
  const contents = Array.isArray(body.contents) ? body.contents : [body.contents ?? ''];
  const text = [textOf(body.systemInstruction ?? ''), ...contents.map(textOf)].join('\n');
  const { input, output } = usageOf(model, text, contents.length);
  const thinks = /^gemini-2\.5/.test(model) && body.generationConfig?.thinkingConfig?.thinkingBudget !== 0;
  const thoughts = thinks ? 3 * output : 0;
  const cached = Math.min(cacheRead, input);
  const reply = replyOf(output);
  const responseId = nextId('', 22);
  const usageMetadata = (candidates) => ({
    promptTokenCount: input,
    ...(candidates !== undefined && { candidatesTokenCount: candidates }),
    totalTokenCount: input + (candidates ?? 0) + thoughts,
    ...(cached > 0 && { cachedContentTokenCount: cached }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: input }],
    ...(cached > 0 && { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] }),
    ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
  });
  const answer = (parts, finish, candidates) => ({
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(finish && { finishReason: 'STOP' }),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(candidates),
    modelVersion: model,
    responseId,
  });
  const recorded = { input, output: output + thoughts, cacheRead: cached, cacheWrite: 0 };
  if (!stream) {
    return { responseModel: model, usage: recorded, body: answer([{ text: reply.text }], true, output) };
  }
  const last = reply.pieces.length - 1;
  return {
    responseModel: model,
    usage: recorded,
    events: reply.pieces.map((piece, i) => ({
      data: answer([{ text: piece }], i === last, i === last ? output : undefined),
    })),
  };
}
