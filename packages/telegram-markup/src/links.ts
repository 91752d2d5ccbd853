import type { TelegramEntity } from './entities.js';

/**
 * How Telegram reads the URL of a link, a mention, a custom emoji or a date, as its parser does for
 * sendMessage (TDLib's LinkManager, which the Bot API server runs): a link it cannot read as an http(s)
 * or tg:// URL is dropped and its text kept, and one it can read is rewritten in a normal form, so
 * 'telegram.org' becomes 'http://telegram.org/'.
 */

/** White space as Telegram's parser knows it (TDLib's is_space), the end of the text included. */
export const isSpace = (c: string | undefined) =>
  c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\0' || c === '\v';
export const isAsciiAlnum = (c: string | undefined) => c !== undefined && /^[0-9A-Za-z]$/.test(c);
export const asciiLower = (value: string) => value.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** A decimal integer written exactly as its value prints ('7', '-7'; not '07', '+7' or ''), in range. */
export function canonicalInteger(value: string, bits: 32 | 64): bigint | null {
  if (!/^-?\d{1,20}$/.test(value)) return null;
  const number = BigInt(value);
  const limit = 1n << BigInt(bits - 1);
  if (number < -limit || number >= limit || number.toString() !== value) return null;
  return number;
}

/** Parameters of a URL's query, each split at its first '=', as Telegram reads tg:// links. */
function parameters(query: string): Array<[string, string]> {
  return query.split('&').map((parameter) => {
    const equals = parameter.indexOf('=');
    return equals === -1 ? [parameter, ''] : [parameter.slice(0, equals), parameter.slice(equals + 1)];
  });
}

interface HttpUrl {
  https: boolean;
  userinfo: string;
  host: string;
  ipv6: boolean;
  port: number;
  /** The path, query and fragment, starting with '/'. */
  query: string;
}

const indexOfAny = (value: string, chars: string, from = 0) => {
  for (let i = from; i < value.length; i += 1) if (chars.includes(value[i]!)) return i;
  return value.length;
};

/** RFC 3986 characters of a host or user name, percent escapes, and any non-ASCII character. */
function isUrlPart(part: string, allowColon: boolean): boolean {
  for (let i = 0; i < part.length; i += 1) {
    const c = part[i]!;
    if (isAsciiAlnum(c) || ".-_!$,~*'();&+=".includes(c) || (allowColon && c === ':')) continue;
    if (c === '%') {
      if (!/^[0-9A-Fa-f]{2}$/.test(part.slice(i + 1, i + 3))) return false;
      i += 2;
      continue;
    }
    if (c.charCodeAt(0) < 128) return false;
  }
  return true;
}

/** An IPv6 address as written between the brackets of a URL's host. */
function isIpv6(address: string): boolean {
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half ? half.split(':') : []));
  // A dotted IPv4 address may stand for the last two groups.
  const last = groups.at(-1) ?? '';
  const ipv4 = last.includes('.') && address.endsWith(last);
  if (ipv4) {
    const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(last);
    if (!octets || octets.slice(1).some((octet) => Number(octet) > 255)) return false;
    groups.pop();
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  const count = groups.length + (ipv4 ? 2 : 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

/** [http[s]://][userinfo@]host[:port][/path][?query][#fragment], read as Telegram reads it. */
function parseHttpUrl(url: string): HttpUrl | null {
  const schemeEnd = indexOfAny(url, ':/?#@[]');
  let https = false;
  let authorityStart = 0;
  if (url.startsWith('://', schemeEnd)) {
    const scheme = asciiLower(url.slice(0, schemeEnd));
    if (scheme !== 'http' && scheme !== 'https') return null;
    https = scheme === 'https';
    authorityStart = schemeEnd + 3;
  }
  const authorityEnd = indexOfAny(url, '/?#', authorityStart);
  const authority = url.slice(authorityStart, authorityEnd);

  let colon = authority.length - 1;
  while (colon > 0 && !':]@'.includes(authority[colon]!)) colon -= 1;
  let port = 0;
  let userinfoHost = authority;
  if (colon > 0 && authority[colon] === ':') {
    const written = canonicalInteger(authority.slice(colon + 1).replace(/^0+(?=.)/, ''), 32);
    port = written === null || written === 0n ? -1 : Number(written);
    userinfoHost = authority.slice(0, colon);
  }
  if (port < 0 || port > 65535) return null;

  const at = userinfoHost.lastIndexOf('@');
  const userinfo = at === -1 ? '' : userinfoHost.slice(0, at);
  const host = asciiLower(userinfoHost.slice(at + 1));
  const ipv6 = host.startsWith('[') && host.endsWith(']') && host.length > 1;
  if (!host || host === '.') return null;
  if (ipv6 ? !isIpv6(host.slice(1, -1)) : !isUrlPart(host, false) || !isUrlPart(userinfo, true)) return null;

  let rest = url.slice(authorityEnd);
  while (rest && isSpace(rest.at(-1))) rest = rest.slice(0, -1);
  // Control characters and spaces are percent-encoded; everything else is kept as written.
  const encoded = rest.replace(
    /[\0- ]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  const query = encoded.startsWith('/') ? encoded : `/${encoded}`;
  return { https, userinfo, host, ipv6, port, query };
}

const startsWithIgnoringCase = (value: string, prefix: string) =>
  asciiLower(value.slice(0, prefix.length)) === prefix;

/** The URL Telegram keeps for a link, or null when it drops the link (TDLib's get_checked_link). */
function checkedLink(link: string): string | null {
  const scheme = ['tg', 'ton', 'tonsite'].find((name) => startsWithIgnoringCase(link, `${name}:`));
  let rest = scheme ? link.slice(scheme.length + 1) : link;
  if (scheme && rest.startsWith('//')) rest = rest.slice(2);
  const url = parseHttpUrl(rest);
  if (!url) return null;
  if (scheme) {
    if (startsWithIgnoringCase(rest, 'http://') || url.https || url.userinfo || url.port || url.ipv6) {
      return null;
    }
    const hostPattern = scheme === 'tonsite' ? /^[0-9A-Za-z_.-]+$/ : /^[0-9A-Za-z_-]+$/;
    if (!hostPattern.test(url.host)) return null;
    const query = url.query.length > 1 && url.query[1] === '?' ? url.query.slice(1) : url.query;
    return `${scheme}://${url.host}${query}`;
  }
  if (!url.host.includes('.') && !url.ipv6) return null;
  const userinfo = url.userinfo ? `${url.userinfo}@` : '';
  const port = url.port ? `:${url.port}` : '';
  return `${url.https ? 'https' : 'http'}://${userinfo}${url.host}${port}${url.query}`;
}

/** What a link's URL makes of it: a text_mention, a text_link to the URL as Telegram writes it, or nothing. */
export function linkNode(url: string): TelegramEntity | null {
  const userId = linkUserId(url);
  if (userId !== null) return { type: 'text_mention', userId, children: [] };
  const checked = checkedLink(url);
  return checked === null ? null : { type: 'link', url: checked, children: [] };
}

/** Telegram's user ids are positive and below 2^40. */
const MAX_USER_ID = 2n ** 40n - 1n;

/** The user a tg://user?id=… link mentions, or null for any other link. */
function linkUserId(link: string): number | null {
  const query = tgQuery(asciiLower(link), 'user');
  if (query === null) return null;
  const id = parameters(query).find(([key]) => key === 'id');
  if (!id) return null;
  const userId = canonicalInteger(id[1], 64);
  return userId !== null && userId > 0n && userId <= MAX_USER_ID ? Number(userId) : null;
}

/** The query of tg://<host>?… (scheme and host in any case, '//' and a '/' after the host optional). */
function tgQuery(link: string, host: string): string | null {
  if (!startsWithIgnoringCase(link, 'tg:')) return null;
  let rest = link.slice(3);
  if (rest.startsWith('//')) rest = rest.slice(2);
  if (!startsWithIgnoringCase(rest, host)) return null;
  rest = rest.slice(host.length);
  if (rest && !'/?#'.includes(rest[0]!)) return null;
  if (rest.startsWith('/')) rest = rest.slice(1);
  if (!rest.startsWith('?')) return null;
  const fragment = rest.indexOf('#');
  return rest.slice(1, fragment === -1 ? undefined : fragment);
}

/** The custom_emoji_id of a tg://emoji?id=… link, or null. */
export function emojiLinkId(link: string): string | null {
  const query = tgQuery(link, 'emoji');
  const id = query === null ? undefined : parameters(query).find(([key]) => key === 'id');
  if (!id) return null;
  const value = canonicalInteger(id[1], 64);
  return value === null || value === 0n ? null : value.toString();
}

/**
 * The date_time_format the Bot API reports for a format as written: 'r' (or 'R') alone, or any of the
 * letters w/W, d, D, t, T; null for anything else ("Invalid date format used"). Telegram keeps one
 * precision each for the date and the time, the short one when both are written.
 */
export function dateTimeFormat(format: string): string | null {
  if (format === 'r' || format === 'R') return 'r';
  if (!/^[wWdDtT]*$/.test(format)) return null;
  const date = format.includes('d') ? 'd' : format.includes('D') ? 'D' : '';
  const time = format.includes('t') ? 't' : format.includes('T') ? 'T' : '';
  return `${/[wW]/.test(format) ? 'w' : ''}${date}${time}`;
}

/** The time and format of a tg://time?unix=…&format=… link, or null. */
export function timeLink(link: string): { unixTime: number; format: string } | null {
  const query = tgQuery(link, 'time');
  if (query === null) return null;
  let unixTime = 0;
  let written = '';
  for (const [key, value] of parameters(query)) {
    if (key === 'unix') {
      const time = canonicalInteger(value, 32);
      if (time === null || time <= 0n) return null;
      unixTime = Number(time);
    }
    if (key === 'format') written = value;
  }
  const format = dateTimeFormat(written);
  return unixTime > 0 && format !== null ? { unixTime, format } : null;
}

/**
 * A number as <tg-time unix="…"> reads it: the digits at the start, wrapped to 32 bits as C++ does
 * (TDLib's to_integer<int32>); anything not positive makes no date.
 */
export function leadingInt32(value: string): number {
  const digits = /^(-?)(\d*)/.exec(value)!;
  let magnitude = 0;
  for (const digit of digits[2]!) magnitude = (magnitude * 10 + Number(digit)) % 2 ** 32;
  let negative = digits[1] === '-';
  if (magnitude > 2 ** 31 - 1) {
    magnitude = 2 ** 32 - magnitude;
    negative = !negative;
    if (magnitude > 2 ** 31 - 1) return -(2 ** 31);
  }
  return negative ? -magnitude : magnitude;
}
