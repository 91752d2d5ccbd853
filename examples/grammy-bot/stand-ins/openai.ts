import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the OpenAI chat completions API (https://platform.openai.com/docs/api-reference/chat), so
 * the example bot (and @lumi/bot's tests) run without a model or a key: `POST /v1/chat/completions`
 * answers like OpenAI, streaming included (server-sent events, with the usage chunk when
 * `stream_options.include_usage` asks for it). The answer is made up from the request: the system
 * prompt's first words and the user's last message. Tokens are counted as OpenAI roughly does, four
 * characters each. It is NOT a model and sends nothing anywhere.
 */

interface ChatMessage {
  role: string;
  content: string | Array<{ type: string; text?: string }>;
}

interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

export interface OpenAIStandIn {
  url: string;
  /** The requests it answered, in order. */
  requests: ChatRequest[];
  /** The next `times` requests get this status with OpenAI's error body (429: `rate_limit_exceeded`). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

const textOf = (message: ChatMessage | undefined) =>
  typeof message?.content === 'string'
    ? message.content
    : (message?.content ?? []).map((part) => part.text ?? '').join(' ');

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** The made-up answer: in the voice the system prompt asks for, about what the user said. */
export function standInAnswer(messages: ChatMessage[]): string {
  const system = textOf(messages.find((m) => m.role === 'system'));
  const user = textOf(messages.filter((m) => m.role === 'user').at(-1));
  const voice = system ? ` (${system.split(/\s+/).slice(0, 8).join(' ')}…)` : '';
  return `Stand-in answer${voice}: you said "${user.slice(0, 200)}".`;
}

export async function startOpenAIStandIn(options: { port?: number } = {}): Promise<OpenAIStandIn> {
  const requests: ChatRequest[] = [];
  const failures: number[] = [];
  let created = 1_700_000_000;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return json(res, 404, { error: { message: 'Not found', type: 'invalid_request_error', code: null } });
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as ChatRequest;
    requests.push(body);
    const failure = failures.shift();
    if (failure) {
      const code = failure === 429 ? 'rate_limit_exceeded' : 'server_error';
      return json(res, failure, { error: { message: `Stand-in failure ${failure}`, type: code, code } });
    }
    const answer = standInAnswer(body.messages ?? []);
    const usage = {
      prompt_tokens: tokens((body.messages ?? []).map(textOf).join('\n')),
      completion_tokens: tokens(answer),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    created += 1;
    const base = { id: `chatcmpl-standin-${created}`, created, model: body.model, system_fingerprint: null };
    if (!body.stream) {
      return json(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: answer, refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (choices: unknown[], extra = {}) =>
      res.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`,
      );
    for (const [index, word] of answer.split(/(?<= )/).entries()) {
      chunk([
        {
          index: 0,
          delta: index === 0 ? { role: 'assistant', content: word } : { content: word },
          finish_reason: null,
        },
      ]);
    }
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    if (body.stream_options?.include_usage) chunk([], { usage });
    res.end('data: [DONE]\n\n');
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    failNext: (status, times = 1) => failures.push(...Array<number>(times).fill(status)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
