import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { calcPrice, findProvider, type ModelPrice as CatalogueRates } from '@pydantic/genai-prices';
import type { TokenPrice } from '../../lib/llm-cost.js';

/**
 * The built-in price catalogue (docs/operators/metrics.md, "Token budgets and model prices"): Pydantic's
 * genai-prices, bundled with the server and never fetched at run time. It knows dated and aliased model
 * names ("gpt-4o-mini-2024-07-18" is gpt-4o-mini), cached-input prices and tiered prices. An operator's
 * price for a model takes precedence over it.
 */
export const CATALOGUE_NAME = `genai-prices ${catalogueVersion()}`;

/** The package's version, from its manifest (its exports do not include package.json). */
function catalogueVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@pydantic/genai-prices');
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** What a call used, as the catalogue reads it: input_tokens include the cache reads and writes. */
export interface CallUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
}

/** A model's entry in the catalogue as the Model Prices screen shows it. */
export interface CatalogueEntry extends TokenPrice {
  /** The catalogue's name for the model ("gpt-4o-mini" for "gpt-4o-mini-2024-07-18"). */
  model: string;
  cache_read_usd_per_million: number | null;
}

interface Match {
  entry: CatalogueEntry;
  /** Set when every rate is a flat number: the cost is then worked out here, without the catalogue. */
  flat: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  providerId: string | undefined;
  catalogueModel: string;
}

/** The catalogue's lookups cost ~50 µs; ingestion prices thousands of calls a second, so each is kept. */
const matches = new Map<string, Match | null>();
const MAX_MATCHES = 10_000;

/** A rate of the catalogue as one number: a tiered price by its base (first) tier, for display. */
function baseRate(rate: CatalogueRates[string]): number | null {
  if (typeof rate === 'number') return rate;
  if (rate && typeof rate === 'object' && 'base' in rate && typeof rate.base === 'number') return rate.base;
  return null;
}

function lookUp(provider: string, model: string): Match | null {
  const providerId = findProvider({ providerId: provider.toLowerCase() })?.id;
  const found = calcPrice(
    { input_tokens: 0, output_tokens: 0 },
    model,
    providerId ? { providerId } : undefined,
  );
  if (!found) return null;
  const rates = found.model_price;
  const input = baseRate(rates.input_mtok);
  if (input === null) return null;
  const output = baseRate(rates.output_mtok) ?? 0;
  const cacheRead = baseRate(rates.cache_read_mtok);
  const isFlat = Object.values(rates).every((rate) => rate === undefined || typeof rate === 'number');
  return {
    entry: {
      model: found.model.id,
      input_usd_per_million: input,
      output_usd_per_million: output,
      cache_read_usd_per_million: cacheRead,
    },
    flat: isFlat
      ? {
          input,
          output,
          cacheRead: cacheRead ?? input,
          cacheWrite: baseRate(rates.cache_write_mtok) ?? input,
        }
      : null,
    providerId: found.provider.id,
    catalogueModel: found.model.id,
  };
}

function matchOf(provider: string, model: string): Match | null {
  const key = `${provider}\u0000${model}`;
  let match = matches.get(key);
  if (match === undefined) {
    match = lookUp(provider, model);
    if (matches.size >= MAX_MATCHES) matches.clear();
    matches.set(key, match);
  }
  return match;
}

/** The catalogue's entry for a model, or null when it does not know the model. */
export function catalogueEntry(provider: string, model: string): CatalogueEntry | null {
  return matchOf(provider, model)?.entry ?? null;
}

/** The catalogue's cost of a call in USD, or null when it does not know the model. */
export function catalogueCost(provider: string, model: string, usage: CallUsage): number | null {
  const match = matchOf(provider, model);
  if (!match) return null;
  const cacheRead = Math.min(usage.cache_read_tokens ?? 0, usage.input_tokens);
  const cacheWrite = Math.min(usage.cache_write_tokens ?? 0, usage.input_tokens - cacheRead);
  if (match.flat) {
    const { input, output, cacheRead: readRate, cacheWrite: writeRate } = match.flat;
    const uncached = usage.input_tokens - cacheRead - cacheWrite;
    return (
      (uncached * input + cacheRead * readRate + cacheWrite * writeRate + usage.output_tokens * output) / 1e6
    );
  }
  const priced = calcPrice(
    {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_read_tokens: cacheRead,
      cache_write_tokens: cacheWrite,
    },
    match.catalogueModel,
    match.providerId ? { providerId: match.providerId } : undefined,
  );
  return priced ? priced.total_price : null;
}
