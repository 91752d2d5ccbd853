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
 * its JSON reused for as long as the answer lives, instead of on every request that polls it. It is kept
 * as UTF-8 bytes, which Fastify sends as they are: a JSON string would be measured and encoded again on
 * every send (100 KB for a week of latency by hour). Fastify's types say a serializer returns a string;
 * its reply takes a Buffer alike.
 */
export function encodeFrozenOnce(compile: SerializerCompiler): SerializerCompiler {
  return (route) => {
    const serialize = compile(route);
    const encoded = new WeakMap<object, Buffer>();
    return (data: unknown) => {
      if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return serialize(data);
      let json = encoded.get(data);
      if (json === undefined) {
        json = Buffer.from(serialize(data));
        encoded.set(data, json);
      }
      return json as unknown as string;
    };
  };
}
