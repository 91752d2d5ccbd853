// `npm run example`: the example bot (src/bot.ts) against a real Lumi, with nothing from outside. It builds
// Lumi if needed and starts it on a scratch data directory, sets up what an operator would (an API key, a
// personality, a channel and a template, a model price) through Lumi's API, starts the stand-ins (the
// Telegram Bot API, which the bot long-polls, and an OpenAI-compatible LLM) and the bot, then plays a few
// users talking to it so the console's panels move: updates, LLM calls by chat, user and feature, an LLM
// failure, a delivery, reactions and a personality change. It keeps chatting every 30 s until Ctrl+C;
// EXAMPLE_ONCE=1 stops after the script and checks that Lumi counted the calls (a smoke test); PORT moves
// Lumi from port 3000.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import { checkPortFree, NodeProcess } from '@lumi/test-support/server-process';
import { buildStale, serverEntry } from '../../scripts/lib/build-stale.mjs';
import { LumiApi } from '../../scripts/lib/lumi-api.mjs';
import { startBotApiStandIn } from './stand-ins/bot-api.ts';
import { startOpenAIStandIn } from './stand-ins/openai.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const once = process.env.EXAMPLE_ONCE === '1';
const port = Number(process.env.PORT || 3000);
const lumiUrl = `http://127.0.0.1:${port}`;
const password = randomBytes(12).toString('base64url');
const say = (text = '') => process.stdout.write(`${text}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const BOT_TOKEN = '123456:example-not-a-real-token';
const ME = { id: 123456, is_bot: true, first_name: 'Lumi example', username: 'lumi_example_bot' };
const GROUP = { id: -1001234567890, type: 'supergroup', title: 'Example group' };
const ALICE = { id: 1001, is_bot: false, first_name: 'Alice' };
const BOB = { id: 1002, is_bot: false, first_name: 'Bob' };
const privateChat = (user) => ({ id: user.id, type: 'private', first_name: user.first_name });
const PERSONALITY = {
  name: 'Lumi (example)',
  description: 'The voice of the example bot.',
  content: { tone: 'warm', system_prompt: 'You are Lumi, a warm and curious market companion.' },
  priority: 10,
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'lumi-example-'));
const running = [];
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  // The bot first, so it flushes its last events to a Lumi that is still there.
  for (const part of running.reverse()) await part.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

/** Polls `find` until it returns something; fails after 15 s. */
async function eventually(find) {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    const found = find();
    if (found) return found;
  }
  throw new Error('Lumi did not deliver the digest within 15 s');
}

/** One message from `user` in `chat`, as Telegram would send it; bot commands get their entity. */
let messageId = 0;
function message(user, chat, text) {
  messageId += 1;
  const command = text.startsWith('/')
    ? [{ type: 'bot_command', offset: 0, length: text.split(' ')[0].length }]
    : undefined;
  return {
    message: {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      chat,
      from: user,
      text,
      entities: command,
    },
  };
}

async function main() {
  await checkPortFree(port, '127.0.0.1');
  // EXAMPLE_SKIP_BUILD=1 runs the build that is there (a CI step that built it already).
  if (process.env.EXAMPLE_SKIP_BUILD !== '1') buildStale();

  const telegram = await FakeBotApi.start();
  running.push({ stop: () => telegram.close() });
  say(`Telegram stand-in (not Telegram: nothing leaves this machine) at ${telegram.url}.`);
  const lumi = await NodeProcess.start(serverEntry, {
    healthUrl: `${lumiUrl}/api/health`,
    stdio: 'inherit',
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LUMI_ADMIN_USERNAME: 'admin',
      LUMI_ADMIN_PASSWORD: password,
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_API_BASE_URL: telegram.url,
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    },
  });
  running.push({ stop: () => lumi.stop('SIGTERM', 15_000) });

  // What an operator sets up in the console, here through the same API.
  const api = new LumiApi(lumiUrl);
  const token = await api.signIn('admin', password);
  const key = await api.createApiKey(token, 'example-bot', ['ingest:write', 'config:read', 'messages:send']);
  const personality = await api.request('POST', '/api/admin/api/config/personalities', {
    token,
    body: PERSONALITY,
  });
  const channel = await api.request('POST', '/api/v1/messaging/channels', {
    token,
    body: { channel_name: 'Example group', chat_id: String(GROUP.id) },
  });
  await api.request('POST', '/api/v1/messaging/templates', {
    token,
    body: {
      template_name: 'Example digest',
      channel_id: channel.id,
      template_content: '<b>Daily digest</b>\nAsked for by {{requested_by}}: markets were calm today.',
    },
  });
  await api.setModelPrice(token, 'gpt-4o-mini', { input_usd_per_million: 0.15, output_usd_per_million: 0.6 });
  say('Lumi: set up an API key, a personality, a channel with a template and a model price.');

  const llm = await startOpenAIStandIn();
  running.push({ stop: () => llm.close() });
  const botApi = await startBotApiStandIn(telegram, ME);
  running.push({ stop: () => botApi.close() });
  const bot = await NodeProcess.start('src/bot.ts', {
    name: 'the example bot',
    cwd: here,
    // @lumi/source: the SDK's TypeScript source, so the example needs no build of it.
    execArgv: ['--conditions=@lumi/source', '--import', 'tsx'],
    stdio: 'inherit',
    env: {
      LUMI_URL: lumiUrl,
      LUMI_API_KEY: key.key,
      LUMI_CONFIG_REFRESH_SECONDS: '3',
      BOT_TOKEN,
      TELEGRAM_API_ROOT: botApi.url,
      OPENAI_API_KEY: 'sk-stand-in',
      OPENAI_BASE_URL: llm.url,
    },
  });
  running.push({ stop: () => bot.stop('SIGTERM', 10_000) });
  let botStopping = false;
  bot.exited.then((code) => {
    if (stopping || botStopping) return;
    say(`The bot stopped (exit code ${code}).`);
    void stop(1);
  });
  await botApi.polling;

  let told = 0;
  const exchange = async (update, expectReplies = 1) => {
    const { from, chat, text } = update.message;
    say(`  ${from.first_name} in ${chat.title ?? 'a private chat'}: ${text}`);
    botApi.push(update);
    await botApi.sentCount(told + expectReplies);
    for (const reply of botApi.sent.slice(told)) say(`    bot: ${reply.text}`);
    told = botApi.sent.length;
  };
  const react = (user, reply, emoji) => {
    say(`  ${user.first_name} reacts ${emoji} to "${reply.text.slice(0, 40)}…"`);
    botApi.push({
      message_reaction: {
        chat: GROUP,
        message_id: reply.message_id,
        user,
        date: Math.floor(Date.now() / 1000),
        old_reaction: [],
        new_reaction: [{ type: 'emoji', emoji }],
      },
    });
  };

  say('\nA few users talk to the bot:');
  await exchange(message(ALICE, privateChat(ALICE), '/start'));
  await exchange(message(ALICE, GROUP, 'What moved the market today?'));
  const answerToAlice = botApi.sent.at(-1);
  await exchange(message(BOB, GROUP, 'Tell me a joke about candles'));
  const answerToBob = botApi.sent.at(-1);
  // The LLM refuses three times in a row: more than the openai client's two retries.
  llm.failNext(429, 3);
  await exchange(message(BOB, privateChat(BOB), 'Are you still there?'));
  await exchange(message(ALICE, GROUP, '/digest'));
  const digest = await eventually(() => telegram.messages().find((m) => m.text.includes('Daily digest')));
  say(
    `  Lumi delivered the digest to ${GROUP.title}: ${digest.text.replace(/<[^>]+>/g, '').replace(/\n/g, ' ')}`,
  );
  react(ALICE, answerToAlice, '👍');
  react(BOB, answerToBob, '👎');

  say('\nAn operator changes the personality in Lumi; the bot picks it up within seconds:');
  await api.request('PUT', `/api/admin/api/config/personalities/${personality.id}`, {
    token,
    body: {
      ...PERSONALITY,
      content: { tone: 'terse', system_prompt: 'You are Lumi, terse and numbers-first.' },
      version: personality.version,
    },
  });
  await sleep(4000);
  await exchange(message(ALICE, privateChat(ALICE), 'Who are you now?'));

  if (once) {
    botStopping = true;
    const code = await bot.stop('SIGTERM', 10_000);
    if (code !== 0) say(`The bot stopped with exit code ${code}.`);
    const usage = await api.request('GET', '/api/metrics/llm/features', { token });
    const calls = usage.features.reduce((sum, f) => sum + f.requests, 0);
    say(
      `\nLumi counted ${calls} LLM calls by feature: ${usage.features.map((f) => `${f.feature} ${f.requests}`).join(', ')}.`,
    );
    await stop(calls >= 4 && code === 0 ? 0 : 1);
    return;
  }

  say('\n  The example is running.');
  say(`    Console:  ${lumiUrl}/admin (sign in as admin / ${password})`);
  say('    Look at: Overview (bot health, LLM usage), Metrics (by feature, chat and user; latency; errors;');
  say(
    '    integrations: telegram_updates), Messages > Deliveries (the digest), Configuration > Personalities.',
  );
  say(`    Data:     ${dataDir} (removed on exit)`);
  say('  The users keep chatting every 30 s. Press Ctrl+C to stop.\n');
  const questions = ['Any news?', 'What is a candle?', 'Summarize the day', 'Thanks!'];
  for (let n = 0; !stopping; n += 1) {
    await sleep(30_000);
    if (stopping) break;
    const user = n % 2 ? BOB : ALICE;
    await exchange(message(user, n % 3 ? GROUP : privateChat(user), questions[n % questions.length])).catch(
      () => undefined,
    );
  }
}

main().catch((error) => {
  process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
