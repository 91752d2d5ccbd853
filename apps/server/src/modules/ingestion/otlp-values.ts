import type { OtlpAnyValue, OtlpSpan } from './otlp-wire.js';

/** OTLP's values as the ingestion API's JSON would carry them (https://opentelemetry.io/docs/specs/otlp/). */

type Int64Value = OtlpSpan['startTimeUnixNano'];

/** protobufjs's Long: a 64-bit integer as its two 32-bit halves (its own toString is slow). */
const isLong = (value: unknown): value is { low: number; high: number } =>
  typeof value === 'object' && value !== null && 'low' in value && 'high' in value;

/**
 * A 64-bit integer, exactly: from a Long, a number, or a decimal string (OTLP/JSON); null when it is none
 * of those.
 */
function int64(value: Int64Value): bigint | null {
  if (value === null || value === undefined) return null;
  if (isLong(value)) return BigInt.asIntN(64, (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0));
  try {
    return BigInt(typeof value === 'number' ? Math.trunc(value) : String(value));
  } catch {
    return null;
  }
}

/**
 * A 64-bit integer as a number (a double): exact to 2^53, and within 256 of a time in nanoseconds, far
 * below the millisecond that matters here; NaN when it is no number.
 */
export function approximate(value: Int64Value, unsigned: boolean): number {
  if (value === null || value === undefined) return NaN;
  if (isLong(value)) return (unsigned ? value.high >>> 0 : value.high | 0) * 2 ** 32 + (value.low >>> 0);
  return Number(value);
}

/** end − start in nanoseconds, exact below 2^53 ns (104 days): by halves, or as big integers from JSON. */
export function durationNs(start: Int64Value, end: Int64Value): number {
  if (isLong(start) && isLong(end)) {
    return ((end.high >>> 0) - (start.high >>> 0)) * 2 ** 32 + ((end.low >>> 0) - (start.low >>> 0));
  }
  const from = int64(start);
  const to = int64(end);
  return from === null || to === null ? NaN : Number(BigInt.asUintN(64, to) - BigInt.asUintN(64, from));
}

/** An attribute's value as the ingestion API's JSON would carry it; null for arrays, maps and bytes. */
export function plain(value: OtlpAnyValue): unknown {
  switch (value.value) {
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'intValue':
      return approximate(value.intValue, false);
    case 'doubleValue':
      return value.doubleValue;
    case undefined:
      return undefined;
    default:
      return null;
  }
}

/** A Telegram id: an int attribute in its exact decimal form (int64 exceeds a double), a string as sent. */
export function idText(value: OtlpAnyValue): unknown {
  return value.value === 'intValue' ? String(int64(value.intValue)) : plain(value);
}

export const hex = (bytes: Uint8Array | null | undefined) =>
  bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex') : '';
export const isId = (bytes: Uint8Array | null | undefined, length: number) =>
  bytes?.length === length && bytes.some((byte) => byte !== 0);
