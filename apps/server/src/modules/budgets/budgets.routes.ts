import {
  modelParamsSchema,
  modelPriceInputSchema,
  modelPriceSchema,
  okResponseSchema,
  providerParamsSchema,
  tokenBudgetInputSchema,
  tokenBudgetSchema,
} from '@lumi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';

export const budgetsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['budgets'];
  const budgets = app.services.budgets;
  const base = '/config/token-budgets';

  app.get(
    base,
    {
      config: { permission: 'metrics:read' },
      schema: {
        tags,
        summary: "Token budgets with today's usage (the current day in LUMI_TIMEZONE)",
        response: { 200: z.array(tokenBudgetSchema) },
      },
    },
    () => budgets.list(),
  );
  app.post(
    `${base}/:provider`,
    {
      config: { permission: 'budgets:write' },
      schema: {
        tags,
        summary: 'Create the budget of a provider',
        params: providerParamsSchema,
        body: tokenBudgetInputSchema,
        response: { 201: tokenBudgetSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await budgets.create(actorOf(request), request.params.provider, request.body)),
  );
  app.put(
    `${base}/:provider`,
    {
      config: { permission: 'budgets:write' },
      schema: {
        tags,
        summary: 'Change the budget of a provider',
        params: providerParamsSchema,
        body: tokenBudgetInputSchema,
        response: { 200: tokenBudgetSchema },
      },
    },
    (request) => budgets.update(actorOf(request), request.params.provider, request.body),
  );
  app.delete(
    `${base}/:provider`,
    {
      config: { permission: 'budgets:write' },
      schema: {
        tags,
        summary: 'Delete the budget of a provider',
        params: providerParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await budgets.remove(actorOf(request), request.params.provider);
      return { ok: true as const };
    },
  );

  app.get(
    '/config/model-prices',
    {
      config: { permission: 'metrics:read' },
      schema: {
        tags,
        summary: 'Model prices in USD per million tokens, used for llm_calls reported without a cost',
        description:
          "The operator's prices, then each model seen in calls over the last 30 days without one, with " +
          "the built-in catalogue's price (`source` 'catalogue') or none ('none'), and how many of its calls " +
          'Lumi could not price. docs/operators/metrics.md, "Token budgets and model prices".',
        response: { 200: z.array(modelPriceSchema) },
      },
    },
    () => budgets.prices(),
  );
  app.put(
    '/config/model-prices/:model',
    {
      config: { permission: 'budgets:write' },
      schema: {
        tags,
        summary: 'Set the price of a model (exact name); calls stored earlier keep their cost',
        params: modelParamsSchema,
        body: modelPriceInputSchema,
        response: { 200: modelPriceSchema },
      },
    },
    (request) => budgets.setPrice(actorOf(request), request.params.model, request.body),
  );
  app.delete(
    '/config/model-prices/:model',
    {
      config: { permission: 'budgets:write' },
      schema: {
        tags,
        summary: "Remove an operator's price: the catalogue prices the model's calls again from now on",
        params: modelParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await budgets.removePrice(actorOf(request), request.params.model);
      return { ok: true as const };
    },
  );
};
