// What the stand-in's answers are made of (llm-api-stand-in.js): the models' answered names, token counts and
// texts that depend only on the request, and the providers' id formats.

/** The model a request names and the versioned name the API answers with, as the providers alias them. */
const DATED_MODELS = {
  'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
  'gpt-4o': 'gpt-4o-2024-08-06',
  'gpt-4.1-mini': 'gpt-4.1-mini-2025-04-14',
  'claude-3-5-haiku-latest': 'claude-3-5-haiku-20241022',
  'claude-3-5-sonnet-latest': 'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-latest': 'claude-3-7-sonnet-20250219',
};

/** The name the API answers a request for `model` with (embedding and Gemini models answer undated). */
export function answeredModel(model) {
  return DATED_MODELS[model] ?? model;
}

/** FNV-1a: a stable number per request, so the same request always gets the same answer. */
export function fnv(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export const tokensOf = (text) => Math.ceil(text.length / 4);
export const WORDS = [
  'The',
  'stand-in',
  'answers',
  'this',
  'request',
  'with',
  'a',
  'short',
  'reply',
  'today.',
];

/** A reply of `tokens` words, one token each, and its pieces for a stream. */
export function replyOf(tokens) {
  const words = Array.from({ length: tokens }, (_, i) => WORDS[i % WORDS.length]);
  const text = words.join(' ');
  const size = Math.ceil(words.length / 4);
  const pieces = [];
  for (let i = 0; i < words.length; i += size)
    pieces.push((i ? ' ' : '') + words.slice(i, i + size).join(' '));
  return { text, pieces };
}

/** The text of a message's content in any provider's shape: a string, or parts with text. */
export function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (content && typeof content === 'object') {
    if (typeof content.text === 'string') return content.text;
    if (content.content !== undefined) return textOf(content.content);
    if (Array.isArray(content.parts)) return textOf(content.parts);
  }
  return '';
}

const ids = { n: 0 };
export const nextId = (prefix, length = 24) => {
  ids.n += 1;
  return `${prefix}${fnv(`${prefix}${ids.n}`).toString(36)}${String(ids.n).padStart(6, '0')}`.slice(
    0,
    length,
  );
};

/** Usage that depends only on the request: input from its text, output from a hash of it. */
export function usageOf(model, text, parts) {
  const input = 3 + parts * 4 + tokensOf(text);
  const output = 8 + (fnv(`${model}\n${text}`) % 32);
  return { input, output };
}

/** A vector of `dimensions` numbers that depends only on the text. */
export function vectorOf(text, dimensions) {
  let seed = fnv(text);
  return Array.from({ length: dimensions }, () => {
    seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) >>> 0;
    return Math.round(((seed / 2 ** 32) * 2 - 1) * 1e6) / 1e6;
  });
}

export const now = () => Math.floor(Date.now() / 1000);
