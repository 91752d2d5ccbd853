import { API_PREFIX, TEMPLATE_DEFAULTS } from '@lumi/contract';
import type { Channel, DeliveryDetail, RenderResult, Template, Topic, Variable } from '@lumi/contract';
import { fakeApi, type FakeRoutes } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';
import { MESSAGING_PATH } from '@/lib/messaging-keys';

const stamp = '2026-11-22T09:00:00.000Z';

export function channel(id: number, overrides: Partial<Channel> = {}): Channel {
  return {
    id,
    channel_name: `Channel ${id}`,
    chat_id: `@channel_${id}x`,
    enabled: true,
    description: '',
    send_problem: null,
    send_problem_at: null,
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
    ...TEMPLATE_DEFAULTS,
    template_name: `Template ${id}`,
    channel_id: 1,
    template_content: '<b>{{token_name}}</b>',
    version: 1,
    created_at: stamp,
    updated_at: stamp,
    updated_by: 'admin',
    ...overrides,
  };
}

/** A delivery as the server answers GET /deliveries/{id}; the list's entries are the same without data and attempts. */
export function delivery(id: number, overrides: Partial<DeliveryDetail> = {}): DeliveryDetail {
  return {
    id,
    status: 'sent',
    source: 'user',
    requested_by: 'admin',
    template_id: 1,
    template_name: 'Template 1',
    template_version: 1,
    schedule_id: null,
    channel_id: 1,
    channel_name: 'Channel 1',
    chat_id: '@channel_1x',
    topic_id: null,
    topic_name: null,
    message_thread_id: null,
    text: '<b>Pepe</b>',
    parse_mode: 'HTML',
    disable_web_preview: false,
    disable_notification: false,
    pin: false,
    parts: null,
    parts_sent: null,
    idempotency_key: null,
    send_at: stamp,
    attempts: 1,
    next_attempt_at: null,
    telegram_message_id: 1000 + id,
    pinned: false,
    error: null,
    created_at: stamp,
    updated_at: stamp,
    sent_at: stamp,
    data: { token_name: 'Pepe' },
    attempt_log: [],
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

interface FakeMessagingApiOptions {
  channels?: Channel[];
  topics?: Record<number, Topic[]>;
  templates?: Template[];
  /** The delivery log, newest first. */
  deliveries?: DeliveryDetail[];
  /** How many deliveries a page of the log holds. */
  deliveryPageSize?: number;
  /** The test's own routes, paths as under MESSAGING_PATH; they win over the defaults. */
  routes?: FakeRoutes;
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
 * The messaging API on the fake API: channels, topics, templates (filtered by channel and type as the
 * server does), variables, test history, rendering (of unsaved content and of a saved template) and the
 * delivery log (filtered and paged by cursor as the server does). The lists are read at each request, so
 * a test's route may change them.
 */
export function fakeMessagingApi({
  channels = [channel(1)],
  topics = {},
  templates = [],
  deliveries = [],
  deliveryPageSize = 50,
  routes = {},
}: FakeMessagingApiOptions) {
  return fakeApi(
    {
      'GET /channels': () => jsonResponse(channels),
      'GET /channels/:id/topics': (_request, { id }) => jsonResponse(topics[Number(id)] ?? []),
      'GET /variables': () => jsonResponse(variables),
      'GET /templates': ({ query }) => {
        const channelId = query.get('channel_id');
        const type = query.get('message_type');
        return jsonResponse(
          templates.filter(
            (t) => (!channelId || t.channel_id === Number(channelId)) && (!type || t.message_type === type),
          ),
        );
      },
      'GET /templates/:id/test-history': () => jsonResponse([]),
      'POST /render': ({ body }) => {
        const { template_content, data } = body as { template_content: string; data: unknown };
        return jsonResponse(renderedFor(template_content, data));
      },
      'POST /templates/:id/render': ({ body }, { id }) => {
        const saved = templates.find((t) => t.id === Number(id));
        if (!saved) return jsonResponse({ detail: 'Template not found', code: 'not_found' }, 404);
        return jsonResponse(renderedFor(saved.template_content, (body as { data: unknown }).data));
      },
      'GET /deliveries': ({ query }) => {
        const cursor = query.get('cursor');
        const matching = deliveries.filter(
          (d) =>
            (!query.has('status') || d.status === query.get('status')) &&
            (!query.has('channel_id') || d.channel_id === Number(query.get('channel_id'))) &&
            (!query.has('template_id') || d.template_id === Number(query.get('template_id'))) &&
            (!cursor || d.id < Number(cursor)),
        );
        const page = matching
          .slice(0, deliveryPageSize)
          .map(({ data: _data, attempt_log: _log, ...entry }) => entry);
        const last = page.at(-1);
        return jsonResponse({
          deliveries: page,
          next_cursor: matching.length > deliveryPageSize && last ? last.id : null,
        });
      },
      'GET /deliveries/:id': (_request, { id }) => {
        const found = deliveries.find((d) => d.id === Number(id));
        return found
          ? jsonResponse(found)
          : jsonResponse({ detail: 'Delivery not found', code: 'not_found' }, 404);
      },
      ...routes,
    },
    { base: `${API_PREFIX}${MESSAGING_PATH}` },
  );
}
