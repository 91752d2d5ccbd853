import type { Channel, RenderResult, SessionUser, Template, Topic, Variable } from '@lumi/contract';
import { vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { adminUser as admin } from '@/test/session-users';

const stamp = '2026-11-22T09:00:00.000Z';

export function channel(id: number, overrides: Partial<Channel> = {}): Channel {
  return {
    id,
    channel_name: `Channel ${id}`,
    chat_id: `@channel_${id}x`,
    enabled: true,
    description: '',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function topic(id: number, channelId: number, overrides: Partial<Topic> = {}): Topic {
  return {
    id,
    channel_id: channelId,
    topic_name: `Topic ${id}`,
    message_thread_id: id * 10,
    enabled: true,
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function template(id: number, overrides: Partial<Template> = {}): Template {
  return {
    id,
    template_name: `Template ${id}`,
    channel_id: 1,
    topic_id: null,
    template_content: '<b>{{token_name}}</b>',
    message_type: 'custom',
    parse_mode: 'HTML',
    disable_web_preview: false,
    disable_notification: false,
    allow_pinning: false,
    pin_by_default: false,
    enabled: true,
    description: '',
    version: 1,
    created_at: stamp,
    updated_at: stamp,
    updated_by: 'admin',
    ...overrides,
  };
}

export const variables: Variable[] = [
  {
    id: 1,
    variable_name: 'price_usd',
    data_type: 'number',
    description: 'Price in US dollars',
    category: 'Market',
    example_value: '0.5',
    available_helpers: ['formatCurrency'],
  },
  {
    id: 2,
    variable_name: 'token_name',
    data_type: 'string',
    description: 'Name of the token',
    category: '',
    example_value: 'Pepe',
    available_helpers: ['uppercase'],
  },
];

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

interface FakeApiOptions {
  channels?: Channel[];
  topics?: Record<number, Topic[]>;
  templates?: Template[];
  /** Answers a request before the defaults do; return undefined to fall through. */
  handle?: (request: FakeRequest) => Response | undefined;
}

/** The rendered text a fake render answers with: the content and the data it was given. */
export function renderedFor(content: string, data: unknown): RenderResult {
  return {
    success: true,
    rendered: `${content} ${JSON.stringify(data)}`,
    length: content.length,
    warnings: [],
    problems: [],
  };
}

/**
 * A stand-in for the messaging API on fetch: channels, topics, templates (filtered by channel and type
 * as the server does), variables and render; every request is recorded for assertions.
 */
export function fakeMessagingApi({
  channels = [channel(1)],
  topics = {},
  templates = [],
  handle,
}: FakeApiOptions) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>((input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace('/api/v1/messaging', ''),
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const answer = handle?.(request) ?? defaultAnswer(request);
    return Promise.resolve(answer);
  });

  function defaultAnswer({ method, path, query, body }: FakeRequest): Response {
    if (method === 'GET' && path === '/channels') return jsonResponse(channels);
    const topicsPath = /^\/channels\/(\d+)\/topics$/.exec(path);
    if (method === 'GET' && topicsPath) return jsonResponse(topics[Number(topicsPath[1])] ?? []);
    if (method === 'GET' && path === '/variables') return jsonResponse(variables);
    if (method === 'GET' && path === '/templates') {
      const channelId = query.get('channel_id');
      const type = query.get('message_type');
      return jsonResponse(
        templates.filter(
          (t) => (!channelId || t.channel_id === Number(channelId)) && (!type || t.message_type === type),
        ),
      );
    }
    if (method === 'GET' && /^\/templates\/\d+\/test-history$/.test(path)) return jsonResponse([]);
    if (method === 'POST' && path === '/render') {
      const { template_content, data } = body as { template_content: string; data: unknown };
      return jsonResponse(renderedFor(template_content, data));
    }
    return jsonResponse({ detail: `No fake for ${method} ${path}`, code: 'not_found' }, 404);
  }

  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}

export function signIn(user: SessionUser = admin) {
  useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false });
}
