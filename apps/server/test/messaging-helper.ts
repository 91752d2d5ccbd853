import type { Channel, ChannelInput, Template, TemplateInput, Topic, TopicInput } from '@lumi/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** Builders for the messaging API tests: a channel, a topic and a template, created through the API. */

export const MESSAGING = '/api/v1/messaging';

export interface Harness {
  app: FastifyInstance;
}
export type Auth = { auth: { authorization: string } };

let serial = 0;
/** A number no other builder has used in this process, for unique names. */
export const next = () => (serial += 1);

/** POSTs `payload` to `url` as `session`, expects 201 and answers the created resource. */
export async function created<T>(t: Harness, session: Auth, url: string, payload: object): Promise<T> {
  const res = await t.app.inject({ method: 'POST', url, headers: session.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}

/** A channel of its own chat (one channel per chat) unless `values` names one. */
export function createChannel(t: Harness, session: Auth, values: Partial<ChannelInput> = {}) {
  const n = next();
  return created<Channel>(t, session, `${MESSAGING}/channels`, {
    channel_name: `Channel ${n}`,
    chat_id: `-100${2_000_000_000 + n}`,
    ...values,
  });
}

export function createTopic(t: Harness, session: Auth, channelId: number, values: Partial<TopicInput> = {}) {
  const n = next();
  return created<Topic>(t, session, `${MESSAGING}/channels/${channelId}/topics`, {
    topic_name: `Topic ${n}`,
    message_thread_id: 40 + n,
    ...values,
  });
}

export function createTemplate(
  t: Harness,
  session: Auth,
  values: Partial<TemplateInput> & { channel_id: number },
) {
  return created<Template>(t, session, `${MESSAGING}/templates`, {
    template_name: `Template ${next()}`,
    template_content: '<b>{{token_name}}</b> is at {{formatCurrency price_usd}}',
    ...values,
  });
}
