// The messaging content the demo enters on its first run (seed-content.mjs), kept as data in
// messaging-content.json: the template variables with example values beyond those every console starts with
// (token_name, price_usd, price_change_24h, market_cap, volume_24h, holders, timestamp …), two channels with
// forum topics (`/api/v1/messaging/channels`), and a template of each message type by channel and topic name,
// its Telegram HTML written line by line, which renders with the variables' examples in Preview.
import content from './messaging-content.json' with { type: 'json' };

export const VARIABLES = content.variables;
export const CHANNELS = content.channels;
export const TEMPLATES = content.templates.map((template) => ({
  ...template,
  template_content: template.template_content.join('\n'),
}));
