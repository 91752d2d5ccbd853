import { z } from 'zod';
import type { AlertCondition } from './conditions.js';

/** Where an operator goes next, as a link in the console (a path under its base, /admin). */
export const nextStepSchema = z
  .object({
    text: z.string(),
    label: z.string(),
    to: z.string(),
  })
  .meta({ id: 'AlertNextStep' });
export type NextStep = z.infer<typeof nextStepSchema>;

/**
 * What to do when a rule fires, per condition (docs/operators/console-guide.md, "When an alert fires"): the first
 * thing to check and the screen that shows it. The links use the screens' own URL parameters (the Calls tab's
 * filters, a screen's ?view=).
 */
export function nextStep(condition: AlertCondition): NextStep {
  switch (condition.type) {
    case 'heartbeat_missing':
      return {
        text: 'Check that the bot is running and can reach Lumi: its last heartbeat and uptime are on the Overview.',
        label: 'Open the Overview',
        to: '/overview',
      };
    case 'telegram_disconnected':
      return {
        text: 'Check the bot’s Telegram token and its network: the Overview shows its connection as it last reported it.',
        label: 'Open the Overview',
        to: '/overview',
      };
    case 'errors':
      return {
        text: 'Bot Health on the Overview counts the errors of the last 24 hours; the bot’s own logs say what they were.',
        label: 'Open the Overview',
        to: '/overview',
      };
    case 'llm_cost':
    case 'spend_spike':
      return {
        text: 'See which chats and users spend the most; a limit or a ban on one of them stops it.',
        label: 'Open the top chats and users',
        to: '/metrics',
      };
    case 'budget_usage':
      return {
        text: 'See which chats and users use the budget; raise it in Metrics or limit the heaviest in Limits.',
        label: 'Open Limits',
        to: '/limits',
      };
    case 'llm_failure_rate':
      return {
        text: 'Open the failed calls: their error types say whether the provider, a model or the bot is at fault.',
        label: 'Open the failed calls',
        to: '/metrics?tab=calls&failed=true',
      };
    case 'llm_latency':
      return {
        text: 'Open the slow calls to see which provider and model they went to.',
        label: 'Open the slow calls',
        to: `/metrics?tab=calls&min_latency_ms=${condition.ms}`,
      };
    case 'integration_success_rate':
      return {
        text: `Check ${condition.service}’s own status; the Overview shows its recent success rate and latency.`,
        label: 'Open the Overview',
        to: '/overview',
      };
    case 'market_data_stale':
      return {
        text: 'Check the market data feed and its websocket; the Overview shows the last candle.',
        label: 'Open the Overview',
        to: '/overview',
      };
    case 'cache_hit_rate':
      return {
        text: 'Check the bot’s cache: the Overview shows its hit rate and size.',
        label: 'Open the Overview',
        to: '/overview',
      };
    case 'delivery_failures':
      return {
        text: 'The failed and refused sends are listed with Telegram’s reason in Messages → Deliveries.',
        label: 'Open the deliveries',
        to: '/messages?view=deliveries',
      };
    case 'limit_reached':
      return {
        text: 'See who was denied, and by which limit, in Limits → Denials.',
        label: 'Open the denials',
        to: '/limits?view=denials',
      };
  }
}
