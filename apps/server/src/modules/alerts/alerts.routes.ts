import {
  alertEvaluationSchema,
  alertHistoryQuerySchema,
  alertHistoryResponseSchema,
  alertNotificationListQuerySchema,
  alertNotificationListResponseSchema,
  alertNotificationSchema,
  alertPreviewRequestSchema,
  alertRuleInputSchema,
  alertRuleListResponseSchema,
  alertRuleSchema,
  alertRuleUpdateSchema,
  alertSummarySchema,
  contactPointCreatedSchema,
  contactPointInputSchema,
  contactPointListResponseSchema,
  contactPointSchema,
  contactPointUpdateSchema,
  idParamSchema,
  silenceInputSchema,
  silenceListResponseSchema,
  silenceSchema,
  silenceUpdateSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceRoutes } from '../../plugins/resource-routes.js';
import { routeOptions } from '../../plugins/route-options.js';

/** Alerts (docs/bot-developers/alerts.md): read with alerts:read, change with alerts:write. */
export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { rules, contactPoints, silences, history } = app.services.alerts;
  /** Each part of the alerts API is listed under a tag of its own. */
  const optionsOf = (tag: string) => ({
    read: routeOptions([tag], 'alerts:read'),
    write: routeOptions([tag], 'alerts:write'),
  });

  // Rules
  const ruleOptions = optionsOf('alert rules');
  const rule = resourceRoutes(app, {
    path: '/alerts/rules',
    item: alertRuleSchema,
    service: rules,
    ...ruleOptions,
  });
  rule.list(
    { summary: 'Alert rules with their state and last value', response: alertRuleListResponseSchema },
    async () => ({
      rules: await rules.list(),
    }),
  );
  rule.create({
    summary: 'Create an alert rule (422 naming contact points that do not exist)',
    body: alertRuleInputSchema,
  });
  app.post(
    '/alerts/rules/preview',
    ruleOptions.write({
      summary: 'What a condition would evaluate to now (the editor’s live line)',
      body: alertPreviewRequestSchema,
      response: alertEvaluationSchema,
    }),
    (request) => rules.preview(request.body.condition),
  );

  rule.get({ summary: 'One alert rule with its state, last evaluation and whether a silence covers it' });
  rule.update({
    summary: 'Change an alert rule; fields left out keep their values (takes effect at the next evaluation)',
    body: alertRuleUpdateSchema,
  });
  rule.remove({ summary: 'Delete an alert rule (its history stays)', answer: 'no-content' });
  app.get(
    '/alerts/summary',
    ruleOptions.read({
      summary: 'Firing and pending alerts, for the Overview',
      response: alertSummarySchema,
    }),
    () => rules.summary(),
  );

  // Contact points
  const pointOptions = optionsOf('alert contact points');
  const point = resourceRoutes(app, {
    path: '/alerts/contact-points',
    item: contactPointSchema,
    service: contactPoints,
    ...pointOptions,
  });
  point.list({ summary: 'Contact points', response: contactPointListResponseSchema }, async () => ({
    contact_points: await contactPoints.list(),
  }));
  point.create({
    summary: 'Create a contact point; a webhook’s answer carries its signing secret, shown only this once',
    body: contactPointInputSchema,
    response: contactPointCreatedSchema,
  });
  point.get({ summary: 'One contact point' });
  point.update({
    summary: 'Change a contact point; the type stays and fields left out keep their values',
    body: contactPointUpdateSchema,
  });
  point.remove({
    summary: 'Delete a contact point (409 naming the rules that notify it)',
    answer: 'no-content',
  });
  app.post(
    '/alerts/contact-points/:id/test',
    pointOptions.write({
      summary: 'Send a test notification: a webhook is tried once now, a Telegram message is queued',
      params: idParamSchema,
      response: alertNotificationSchema,
    }),
    (request) => contactPoints.test(request.params.id),
  );
  app.get(
    '/alerts/contact-points/:id/notifications',
    pointOptions.read({
      summary: 'The contact point’s notifications, newest first, with their tries',
      params: idParamSchema,
      querystring: alertNotificationListQuerySchema,
      response: alertNotificationListResponseSchema,
    }),
    (request) => contactPoints.notifications(request.params.id, request.query),
  );

  // Silences
  const silence = resourceRoutes(app, {
    path: '/alerts/silences',
    item: silenceSchema,
    service: silences,
    ...optionsOf('alert silences'),
  });
  silence.list({ summary: 'Silences with their status', response: silenceListResponseSchema }, async () => ({
    silences: await silences.list(),
  }));
  silence.create({
    summary:
      'Mute one rule, a severity or every rule, once or in a recurring window (422 when the end has passed)',
    body: silenceInputSchema,
  });
  silence.get({ summary: 'One silence' });
  silence.update({
    summary:
      'Replace a silence, e.g. with a later end; `ends_at: "now"` ends an active once silence now (409 once it has ended)',
    body: silenceUpdateSchema,
  });
  silence.remove({ summary: 'End and delete a silence', answer: 'no-content' });

  app.get(
    '/alerts/history',
    optionsOf('alert history').read({
      summary: 'State changes of the rules, newest first (`state` is the state entered)',
      querystring: alertHistoryQuerySchema,
      response: alertHistoryResponseSchema,
    }),
    (request) => history.list(request.query),
  );
};
