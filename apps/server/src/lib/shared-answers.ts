import type { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * Answers that several requests share (the dashboard cache) are frozen, deeply, so that no request can
 * change what another one sends, and so that the serializer can recognise them and encode each only once.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

type SerializerCompiler = typeof serializerCompiler;

/**
 * Wraps the response serializer (zod encode, then JSON) of each route: a frozen answer is encoded once and
 * its JSON reused for as long as the answer lives, instead of on every request that polls it.
 */
export function encodeFrozenOnce(compile: SerializerCompiler): SerializerCompiler {
  return (route) => {
    const serialize = compile(route);
    const encoded = new WeakMap<object, string>();
    return (data: unknown) => {
      if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return serialize(data);
      let json = encoded.get(data);
      if (json === undefined) {
        json = serialize(data);
        encoded.set(data, json);
      }
      return json;
    };
  };
}
