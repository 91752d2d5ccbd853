// What the demo (scripts/demo.mjs) tells once it is live: how to reach the console and what is about to
// happen, then as it runs, the alerts that reached the Ops chat, the messages the fake Bot API refused on
// purpose (bot-api-failures.mjs), the budgets used up, and a status line.
import { OUTAGE_MS, SLOT_MS } from './bot-timeline.mjs';
import { describeRefusal } from './bot-api-failures.mjs';
import { clock, count, fmt, say, span } from './print.mjs';
import { ALERT_RULES, OPS_CHANNEL } from './seed-alerts.mjs';
import { consoleUrl, shownDir, username } from './settings.mjs';

/**
 * The banner: where the console is and how to sign in (`keptPassword`: the password is the one of the
 * first demo run, not given now), how often the bot reports, and when the staged `outage` comes.
 */
export function sayRunning({ password, keptPassword, fakeBotApiUrl, liveEveryMs, outage }) {
  const heartbeatRule = ALERT_RULES.find((rule) => rule.condition.type === 'heartbeat_missing');
  say('');
  say('  Lumi Admin demo is running.');
  say(`    Console:  ${consoleUrl}`);
  say(`    Sign in:  ${username} / ${password}`);
  if (keptPassword) say('              (as set at the first demo run; yours if you changed it since)');
  say(`    Data:     ${shownDir} (demo only; delete it to start over)`);
  say(`    Telegram: a demo-only fake Bot API at ${fakeBotApiUrl} (not Telegram)`);
  say(
    `  The bot reports live events every ${liveEveryMs / 1000} s and asks Lumi to send a price alert every ` +
      `${(2 * SLOT_MS) / 1000} s`,
  );
  say('  and the market dashboard every minute (the log is under Messages > Deliveries). The fake Bot API');
  say('  fails a message now and then on purpose (a 403, a 500, a 429), each told below.');
  say('  Press Ctrl+C to stop.');
  const firesAt = clock(outage.from * SLOT_MS + heartbeatRule.condition.seconds * 1000);
  say(
    `  At ${clock(outage.from * SLOT_MS)} the bot goes down for ${span(OUTAGE_MS / 60_000, 'minute')}, then restarts:`,
  );
  say(
    `  the alert '${heartbeatRule.name}' fires at about ${firesAt}, tells the ${OPS_CHANNEL.channel_name} chat,`,
  );
  say(`  and resolves at about ${clock((outage.to + 3) * SLOT_MS)} (Alerts in the console).`);
  say('');
}

/**
 * The live report on stderr: `tell(totals, sent)` after each round of the bot (`totals` of its latest
 * sends, `sent` events in all) tells what is new at `fakeBotApi` and in the budgets, and the status line
 * (with the LLM calls the limits refused since start-up):
 * rewritten in place on a terminal, once a minute otherwise.
 */
export function createLiveStatus(fakeBotApi) {
  let lastLine = 0;
  let told = fakeBotApi.accepted.length;
  let toldRefused = 0;
  let denied = 0;
  const tty = process.stderr.isTTY;
  const warned = new Set();
  return (totals, sent) => {
    // Each alert that reached the Ops chat, by the first lines of its text.
    for (const message of fakeBotApi.accepted.slice(told)) {
      if (message.chat_id !== OPS_CHANNEL.chat_id) continue;
      const lines = message.text
        .replace(/<[^>]*>/g, '')
        .split('\n')
        .filter(Boolean);
      const title = lines.slice(0, 3).join(' · ');
      process.stderr.write(
        `\nAlert to the ${OPS_CHANNEL.channel_name} chat at ${clock(message.at, true)}: ${title}\n`,
      );
    }
    told = fakeBotApi.accepted.length;
    // Each message the fake refused on purpose, but not the 429s of the wait one of them asked for.
    for (const refusal of fakeBotApi.refused.slice(toldRefused)) {
      if (!refusal.flood_wait)
        process.stderr.write(`\n${clock(refusal.at, true)} ${describeRefusal(refusal)}\n`);
    }
    toldRefused = fakeBotApi.refused.length;
    for (const budget of totals.budgets.filter((b) => b.exceeded && !warned.has(b.provider))) {
      warned.add(budget.provider);
      process.stderr.write(
        `\nThe ${budget.provider} token budget is used up for today (${budget.usage_percentage} %).\n`,
      );
    }
    const refusedCount = fakeBotApi.refused.length;
    denied += totals.denied;
    const line =
      `Live: ${count(sent, 'event')} reported since start-up, ` +
      `${count(fakeBotApi.accepted.length, 'message')} received by the fake Bot API` +
      (refusedCount ? ` (and ${fmt(refusedCount)} refused on purpose)` : '') +
      (denied ? `, ${count(denied, 'LLM call')} left out as the limits refused them` : '') +
      `, the latest at ${new Date().toLocaleTimeString('en-GB')}.`;
    if (tty) process.stderr.write(`\r${line}\x1b[K`);
    else if (Date.now() - lastLine >= 60_000) {
      lastLine = Date.now();
      process.stderr.write(`${line}\n`);
    }
  };
}
