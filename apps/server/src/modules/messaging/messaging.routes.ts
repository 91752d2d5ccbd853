import type { FastifyPluginAsync } from 'fastify';
import { channelsRoutes } from './channels/channels.routes.js';
import { deliveriesRoutes } from './deliveries/deliveries.routes.js';
import { renderingRoutes } from './rendering/rendering.routes.js';
import { schedulesRoutes } from './schedules/schedules.routes.js';
import { testSendsRoutes } from './telegram/test-sends.routes.js';
import { templatesRoutes } from './templates/templates.routes.js';
import { variablesRoutes } from './variables/variables.routes.js';

/** Paths as in spec section 7 (`/v1/messaging/…`), under /api. */
export const messagingRoutes: FastifyPluginAsync = async (app) => {
  await app.register(
    async (messaging) => {
      await messaging.register(channelsRoutes);
      await messaging.register(templatesRoutes);
      await messaging.register(variablesRoutes);
      await messaging.register(renderingRoutes);
      await messaging.register(testSendsRoutes);
      await messaging.register(deliveriesRoutes);
      await messaging.register(schedulesRoutes);
    },
    { prefix: '/v1/messaging' },
  );
};
