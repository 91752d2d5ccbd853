import { groupedNumber } from './text.js';

/**
 * The shape every JSON request body keeps to (docs/operators/security.md, "Bounded work"): deep enough and
 * wide enough for every field of the API (a configuration's content, a message's data, a batch of 1,000
 * events), far below what would let one request hold the server. The server checks a body against them
 * before it parses it.
 */
export const JSON_LIMITS = {
  maxDepth: 64,
  maxObjectKeys: 1_000,
  maxArrayItems: 10_000,
} as const;

export const JSON_LIMIT_MESSAGES = {
  depth: `The JSON body is nested more than ${JSON_LIMITS.maxDepth} levels deep; send a flatter structure`,
  objectKeys: `An object in the JSON body has more than ${groupedNumber(JSON_LIMITS.maxObjectKeys)} keys; split it into smaller objects`,
  arrayItems: `A list in the JSON body has more than ${groupedNumber(JSON_LIMITS.maxArrayItems)} items; send fewer at a time`,
} as const;
