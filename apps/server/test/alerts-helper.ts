import type { AlertRule, AlertRuleInput, ContactPointCreated, ContactPointInput } from '@lumi/contract';
import type { FastifyInstance } from 'fastify';
import { created, next, type Auth, type Harness } from './messaging-helper.js';

/** Builders for the alerts API tests: contact points and rules, created through the API. */

export const ALERTS = '/api/alerts';

export function createWebhookPoint(t: Harness, session: Auth, url: string, name = `Hook ${next()}`) {
  return created<ContactPointCreated>(t, session, `${ALERTS}/contact-points`, {
    name,
    type: 'webhook',
    url,
  } satisfies ContactPointInput);
}

export function createTelegramPoint(
  t: Harness,
  session: Auth,
  values: { channel_id: number; topic_id?: number | null; template_id?: number | null; name?: string },
) {
  return created<ContactPointCreated>(t, session, `${ALERTS}/contact-points`, {
    name: `Chat ${next()}`,
    type: 'telegram',
    ...values,
  });
}

export function createRule(
  t: Harness,
  session: Auth,
  values: Partial<AlertRuleInput> & { contact_point_ids: number[] },
) {
  return created<AlertRule>(t, session, `${ALERTS}/rules`, {
    name: `Rule ${next()}`,
    condition: { type: 'telegram_disconnected' },
    ...values,
  });
}

/** One evaluation pass, as the `alerts` job runs it. */
export function runPass(app: FastifyInstance) {
  return app.services.alerts.evaluator.runPass();
}
