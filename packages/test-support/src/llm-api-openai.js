// OpenAI's answers for the stand-in (llm-api-stand-in.js), as https://platform.openai.com/docs/api-reference
// documents them: Chat Completions, the Responses API and embeddings.
import {
  answeredModel,
  nextId,
  now,
  replyOf,
  textOf,
  tokensOf,
  usageOf,
  vectorOf,
} from './llm-api-shapes.js';

export const OPENAI_ANSWERS = {
  /** https://platform.openai.com/docs/api-reference/chat/create, and its streamed chunks. */
  'chat.completions'({ body, model, stream, cacheRead }) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const text = messages.map((m) => textOf(m.content)).join('\n');
    const { input, output } = usageOf(model, text, messages.length);
    const cached = Math.min(cacheRead, input);
    const responseModel = answeredModel(model);
    const reply = replyOf(output);
    const usage = {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
    const head = {
      id: nextId('chatcmpl-', 38),
      created: now(),
      model: responseModel,
      service_tier: 'default',
      system_fingerprint: 'fp_standin01',
    };
    const recorded = { input, output, cacheRead: cached, cacheWrite: 0 };
    if (!stream) {
      return {
        responseModel,
        usage: recorded,
        body: {
          ...head,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply.text, refusal: null, annotations: [] },
              logprobs: null,
              finish_reason: 'stop',
            },
          ],
          usage,
        },
      };
    }
    const withUsage = body.stream_options?.include_usage === true;
    const chunk = (choices, extra = {}) => ({
      data: {
        ...head,
        object: 'chat.completion.chunk',
        choices,
        ...(withUsage && { usage: null }),
        ...extra,
      },
    });
    const delta = (d, finish = null) => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
    return {
      responseModel,
      usage: recorded,
      events: [
        chunk(delta({ role: 'assistant', content: '', refusal: null })),
        ...reply.pieces.map((piece) => chunk(delta({ content: piece }))),
        chunk(delta({}, 'stop')),
        ...(withUsage ? [chunk([], { usage })] : []),
        { data: '[DONE]' },
      ],
    };
  },

  /** https://platform.openai.com/docs/api-reference/responses/create, and its streaming events. */
  responses({ body, model, stream, cacheRead }) {
    const items = typeof body.input === 'string' ? [{ content: body.input }] : (body.input ?? []);
    const text = [body.instructions ?? '', ...items.map((i) => textOf(i.content ?? i))].join('\n');
    const { input, output } = usageOf(model, text, items.length);
    const cached = Math.min(cacheRead, input);
    const responseModel = answeredModel(model);
    const reply = replyOf(output);
    const id = nextId('resp_', 40);
    const messageId = nextId('msg_', 40);
    const created = now();
    const usage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + output,
    };
    const part = { type: 'output_text', text: reply.text, annotations: [], logprobs: [] };
    const message = {
      id: messageId,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [part],
    };
    const response = (status, extra) => ({
      id,
      object: 'response',
      created_at: created,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model: responseModel,
      output: [],
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      service_tier: 'default',
      store: true,
      temperature: body.temperature ?? 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: [],
      top_p: body.top_p ?? 1,
      truncation: 'disabled',
      usage: null,
      user: null,
      metadata: {},
      ...extra,
    });
    const recorded = { input, output, cacheRead: cached, cacheWrite: 0 };
    if (!stream) {
      return {
        responseModel,
        usage: recorded,
        body: response('completed', { output: [message], usage }),
      };
    }
    let sequence = 0;
    const event = (type, data) => ({ event: type, data: { type, sequence_number: sequence++, ...data } });
    const place = { item_id: messageId, output_index: 0, content_index: 0 };
    return {
      responseModel,
      usage: recorded,
      events: [
        event('response.created', { response: response('in_progress') }),
        event('response.in_progress', { response: response('in_progress') }),
        event('response.output_item.added', {
          output_index: 0,
          item: { ...message, status: 'in_progress', content: [] },
        }),
        event('response.content_part.added', {
          ...place,
          part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
        }),
        ...reply.pieces.map((delta) =>
          event('response.output_text.delta', { ...place, delta, logprobs: [], obfuscation: 'x' }),
        ),
        event('response.output_text.done', { ...place, text: reply.text, logprobs: [] }),
        event('response.content_part.done', { ...place, part }),
        event('response.output_item.done', { output_index: 0, item: message }),
        event('response.completed', { response: response('completed', { output: [message], usage }) }),
      ],
    };
  },

  /** https://platform.openai.com/docs/api-reference/embeddings/create */
  embeddings({ body, model }) {
    const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
    const texts = inputs.map((i) => (typeof i === 'string' ? i : JSON.stringify(i)));
    const input = texts.reduce((sum, t) => sum + Math.max(1, tokensOf(t)), 0);
    const dimensions = body.dimensions ?? 1536;
    const base64 = body.encoding_format === 'base64';
    const embedding = (t) => {
      const vector = vectorOf(t, dimensions);
      return base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    };
    return {
      responseModel: answeredModel(model),
      usage: { input, output: 0, cacheRead: 0, cacheWrite: 0 },
      body: {
        object: 'list',
        data: texts.map((t, index) => ({ object: 'embedding', index, embedding: embedding(t) })),
        model: answeredModel(model),
        usage: { prompt_tokens: input, total_tokens: input },
      },
    };
  },
};
