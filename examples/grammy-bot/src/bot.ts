// A grammY bot connected to Lumi with @lumi/bot: it answers with an LLM (any OpenAI-compatible API), in the
// voice of the personality operators set in Lumi's Configuration screen, and Lumi sees every update, LLM
// call, error and reaction. Copy it and change what you like; docs/bot-developers/connect-your-bot.md walks
// through it.
//
//   LUMI_URL=http://localhost:3000 LUMI_API_KEY=lumi_… BOT_TOKEN=123:abc OPENAI_API_KEY=sk-… npm start
//
// Optional: OPENAI_BASE_URL (another OpenAI-compatible provider), OPENAI_MODEL (default gpt-4o-mini),
// TELEGRAM_API_ROOT (a local Bot API server), LUMI_CONFIG_FILE (keep Lumi's configuration across restarts),
// LUMI_CONFIG_REFRESH_SECONDS (default 30).
import { createLumi, type LumiFlavor } from '@lumi/bot';
import { Bot, type Context } from 'grammy';
import OpenAI from 'openai';

function env(name: string, fallback?: string): string {
  const value = process.env[name] || fallback;
  if (value === undefined) throw new Error(`Set ${name} (see the top of src/bot.ts)`);
  return value;
}

const lumi = createLumi({
  url: env('LUMI_URL'),
  // An API key with the scopes ingest:write, config:read and messages:send (Lumi: Administration > API keys).
  apiKey: env('LUMI_API_KEY'),
  config: {
    file: process.env.LUMI_CONFIG_FILE,
    refreshSeconds: Number(env('LUMI_CONFIG_REFRESH_SECONDS', '30')),
  },
});

// Every call through this client is reported to Lumi, with the chat, user and feature of the update.
const openai = lumi.openai(
  new OpenAI({ apiKey: env('OPENAI_API_KEY'), baseURL: process.env.OPENAI_BASE_URL || undefined }),
);
const model = env('OPENAI_MODEL', 'gpt-4o-mini');

type BotContext = Context & LumiFlavor<typeof lumi>;
const bot = new Bot<BotContext>(env('BOT_TOKEN'), {
  client: { apiRoot: process.env.TELEGRAM_API_ROOT || undefined },
});

// Reports each update, handler errors and reactions to the bot's messages, and sets the chat and user for
// everything reported while the update is handled.
bot.use(lumi.grammy());

/** The system prompt of the highest-priority active personality in Lumi, or a default. */
function personality(): string {
  const item = lumi.config.item('personalities');
  if (!item) return 'You are a friendly, concise Telegram bot.';
  if (typeof item.content === 'string') return item.content;
  const { system_prompt: prompt, tone } = item.content as { system_prompt?: string; tone?: string };
  return prompt ?? `You are ${item.name}, a Telegram bot. Your tone: ${tone ?? 'friendly'}.`;
}

bot.command('start', (ctx) =>
  ctx.reply(`Hello! I am ${lumi.config.item('personalities')?.name ?? 'a bot'}. Ask me anything.`),
);

// Asks Lumi to post its "Example digest" template to its channel (Lumi renders, checks and sends it).
bot.command('digest', async (ctx) => {
  ctx.lumi.setFeature('digest');
  const delivery = await lumi.send({
    template: 'Example digest',
    data: { requested_by: ctx.from?.first_name ?? 'someone' },
    // One digest per chat and day, however often it is asked for.
    idempotencyKey: `digest-${ctx.chat.id}-${new Date().toISOString().slice(0, 10)}`,
  });
  await ctx.reply(`The digest is on its way (delivery ${delivery.id}, ${delivery.status}).`);
});

bot.on('message:text', async (ctx) => {
  ctx.lumi.setFeature('reply');
  // Lumi's answers say when today's token budget is spent.
  if (lumi.budgetExceeded('openai')) return ctx.reply('I have talked enough for today. See you tomorrow!');
  await ctx.replyWithChatAction('typing');
  try {
    const completion = await openai.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: personality() },
        { role: 'user', content: ctx.message.text },
      ],
    });
    await ctx.reply(completion.choices[0]?.message.content || '…');
  } catch (error) {
    // The failed LLM call is already reported; this reports the error and keeps the user informed.
    lumi.error(error);
    await ctx.reply('Sorry, I could not think of an answer just now. Please try again.');
  }
});

// The plugin has reported the error to Lumi already; this keeps the bot running.
bot.catch((error) => console.error(`Update ${error.ctx.update.update_id} failed:`, error.error));

lumi.config.on('change', (config, previous) => {
  const name = config.domains.personalities?.[0]?.name ?? '(none)';
  console.log(
    `Configuration ${previous ? 'changed' : 'loaded'} (version ${config.version}): personality "${name}".`,
  );
});

async function shutdown() {
  await bot.stop();
  // Sends what is still queued (at most 5 s).
  await lumi.close();
}
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());

await lumi.config.load();
lumi.start();
await bot.start({
  // message_reaction: reactions to the bot's messages become feedback in Lumi.
  allowed_updates: ['message', 'message_reaction'],
  onStart: (me) => console.log(`@${me.username} is running; press Ctrl+C to stop.`),
});
