import { describe, expect, it } from 'vitest';
import { parseMarkup } from './parse.js';
import type { ParseMode } from './parse-mode.js';
import { BOT_API_MARKDOWN } from './test/vectors/bot-api-markdown.js';
import {
  agrees,
  expectedOutcome,
  outcome,
  singleCharacterVectors,
  type ParseVector,
} from './test/vectors/parse-vector.js';
import { TDLIB_HTML_ACCEPTED } from './test/vectors/tdlib-html-accepted.js';
import { TDLIB_HTML_REFUSED } from './test/vectors/tdlib-html-refused.js';
import { TDLIB_MARKDOWN_V2_ACCEPTED } from './test/vectors/tdlib-markdown-v2-accepted.js';
import { TDLIB_MARKDOWN_V2_REFUSED } from './test/vectors/tdlib-markdown-v2-refused.js';

/**
 * Our parsers against Telegram's: the test vectors of TDLib, whose parser the Bot API server runs, and
 * the Bot API's own examples for legacy Markdown. Every message must come out with the same text and
 * entities (types, offsets and lengths in UTF-16 code units, URLs, languages, user ids, custom emoji
 * ids, dates and their formats), or be refused as Telegram refuses it.
 */
const suites: Array<[ParseMode, ParseVector[]]> = [
  ['HTML', [...TDLIB_HTML_REFUSED, ...TDLIB_HTML_ACCEPTED]],
  ['MarkdownV2', [...singleCharacterVectors(), ...TDLIB_MARKDOWN_V2_REFUSED, ...TDLIB_MARKDOWN_V2_ACCEPTED]],
  ['Markdown', BOT_API_MARKDOWN],
];

/** The agreement asked of the package, per parse mode: at least 99 %. */
const REQUIRED_AGREEMENT = 0.99;

describe.each(suites)('%s agrees with Telegram', (parseMode, vectors) => {
  const disagreeing = vectors
    .map((vector) => ({ vector, result: parseMarkup(parseMode, vector.input) }))
    .filter(({ vector, result }) => !agrees(vector, result))
    .map(({ vector, result }) => ({
      input: vector.input,
      expected: expectedOutcome(vector),
      actual: outcome(result),
    }));
  const agreeing = vectors.length - disagreeing.length;
  const rate = agreeing / vectors.length;

  it(`on ${agreeing} of ${vectors.length} vectors (${(rate * 100).toFixed(1)} %; at least 99 % required)`, () => {
    // The disagreeing vectors are listed in the failure, with what Telegram and we make of each.
    expect(rate >= REQUIRED_AGREEMENT ? [] : disagreeing).toEqual([]);
  });

  it.each(vectors.map((vector) => [vector.input, vector] as const))('%j', (_input, vector) => {
    const result = parseMarkup(parseMode, vector.input);
    if ('refused' in vector) expect(result.error).not.toBeNull();
    else expect(outcome(result)).toBe(expectedOutcome(vector));
  });
});
