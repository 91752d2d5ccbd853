import { isIP } from 'node:net';

/**
 * Which proxies may name the client in `X-Forwarded-For` (LUMI_TRUST_PROXY): none, the last N hops, or
 * the listed addresses and ranges. Trusting every hop would let a client behind an appending proxy choose
 * its own address for sign-in throttling and the audit log, so there is no "trust all".
 * A hop count suits an instance that only its proxies can reach; where clients could reach it directly,
 * list the proxies instead, so a direct client's own header is never read.
 */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for the loopback, link-local and private ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export const TRUST_PROXY_HELP =
  'must be false, a number of proxy hops (true means 1), or a comma-separated list of proxy addresses or ranges such as 10.0.0.0/8,loopback';

/** Reads LUMI_TRUST_PROXY; null when the value is not valid. */
export function parseTrustProxy(value: string): TrustProxy | null {
  const text = value.trim();
  if (text === 'false' || text === '0') return false;
  if (text === 'true') return 1;
  if (/^[1-9][0-9]?$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isAddressOrRange) ? entries : null;
}

/**
 * Fastify's `trustProxy` for the setting. Fastify reads a list with proxy-addr, but treats a bare hop count
 * as trusting nobody, so hops are a function of the hop's position (0 is the peer that connected).
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}
