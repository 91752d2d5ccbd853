import {
  renderContentBodySchema,
  renderResultSchema,
  renderTemplateBodySchema,
  templateParamsSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeOptions } from '../../../plugins/route-options.js';

/**
 * Rendering (spec section 7; docs/bot-developers/deliveries.md, "Message templates"): a result, never an
 * error, for a template that does not render or that Telegram would refuse (`success: false` with the
 * problems). A bot's API key with templates:read may render too.
 */
export const renderingRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = routeOptions(['messaging'], 'templates:read', { apiKeyScope: 'templates:read' });
  const service = app.services.messaging.rendering;

  app.post(
    '/templates/:id/render',
    read({
      summary: "Render a saved template with sample data and check it against Telegram's rules",
      params: templateParamsSchema,
      body: renderTemplateBodySchema,
      response: renderResultSchema,
    }),
    (request) => service.renderSaved(request.params.id, request.body.data),
  );
  app.post(
    '/render',
    read({
      summary: 'Render template content that is not saved yet (the editor preview)',
      body: renderContentBodySchema,
      response: renderResultSchema,
    }),
    (request) => service.render(request.body.template_content, request.body.parse_mode, request.body.data),
  );
};
