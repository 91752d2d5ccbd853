// What an operator would have set up in the console before the bot goes live: configuration items in every
// domain (seed-config-items.mjs), the template variables with example values, two channels with forum
// topics and a template of each message type (seed-messaging.mjs). The demo enters them through the public
// API on its first run (scripts/demo.mjs), so a new user finds every screen filled, and the templates render
// with the variables' examples in Preview. The alert rules come later (seed-alerts.mjs).
import { CONFIG_ITEMS } from './seed-config-items.mjs';
import { CHANNELS, TEMPLATES, VARIABLES } from './seed-messaging.mjs';

const CONFIG_PATH = '/api/admin/api/config';
const MESSAGING_PATH = '/api/v1/messaging';

/**
 * Enters that content through the API as `token`'s user. Each part is skipped when the console
 * already has some of it (an operator's own; variables one by one, by name), so a second run never
 * duplicates or overwrites anything.
 * Returns what it added, for the demo's set-up line.
 */
export async function seedContent(api, token) {
  const get = (path) => api.request('GET', path, { token });
  const post = (path, body) => api.request('POST', path, { token, body });
  const made = [];

  let items = 0;
  for (const [domain, list] of Object.entries(CONFIG_ITEMS)) {
    if ((await get(`${CONFIG_PATH}/${domain}`)).length > 0) continue;
    for (const item of list) {
      await post(`${CONFIG_PATH}/${domain}`, item);
      items += 1;
    }
  }
  if (items) made.push(`${items} configuration items`);

  const known = new Set((await get(`${MESSAGING_PATH}/variables`)).map((v) => v.variable_name));
  const missing = VARIABLES.filter((v) => !known.has(v.variable_name));
  for (const variable of missing) await post(`${MESSAGING_PATH}/variables`, variable);
  if (missing.length) made.push(`${missing.length} template variables`);

  if ((await get(`${MESSAGING_PATH}/channels`)).length === 0) {
    const topicIds = new Map();
    const channelIds = new Map();
    for (const { topics, ...channel } of CHANNELS) {
      const created = await post(`${MESSAGING_PATH}/channels`, channel);
      channelIds.set(channel.channel_name, created.id);
      for (const topic of topics) {
        const t = await post(`${MESSAGING_PATH}/channels/${created.id}/topics`, topic);
        topicIds.set(`${channel.channel_name}/${topic.topic_name}`, t.id);
      }
    }
    for (const { channel, topic, ...template } of TEMPLATES) {
      await post(`${MESSAGING_PATH}/templates`, {
        ...template,
        channel_id: channelIds.get(channel),
        topic_id: topicIds.get(`${channel}/${topic}`) ?? null,
      });
    }
    made.push(`${CHANNELS.length} channels with topics, ${TEMPLATES.length} templates`);
  }
  return made;
}
