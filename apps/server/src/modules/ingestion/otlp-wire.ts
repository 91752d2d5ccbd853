import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import otlpRoot from '@opentelemetry/otlp-transformer/build/src/generated/root.js';
import protobuf from 'protobufjs';
import { jsonShapeProblem } from '../../lib/json-shape.js';

/**
 * The OTLP/HTTP wire format of traces (https://opentelemetry.io/docs/specs/otlp/#otlphttp): the request
 * and response messages come from the official OpenTelemetry protocol definitions, compiled by protobufjs
 * and shipped in @opentelemetry/otlp-transformer; protobufjs decodes and encodes them.
 */

export type OtlpEncoding = 'protobuf' | 'json';

export const OTLP_CONTENT_TYPES: Record<OtlpEncoding, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

/** An int64 as protobufjs gives it: a Long object, a number, or (from JSON) a decimal string. */
type Int64 = number | string | { toString(): string };

/** The parts of an OTLP AnyValue that a span's GenAI attributes use (opentelemetry/proto/common/v1). */
export interface OtlpAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  value?: string;
}

export interface OtlpKeyValue {
  key?: string | null;
  value?: OtlpAnyValue | null;
}

export interface OtlpSpan {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  parentSpanId?: Uint8Array | null;
  name?: string | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: OtlpKeyValue[] | null;
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  status?: { code?: number | null; message?: string | null } | null;
  events?: { name?: string | null; attributes?: OtlpKeyValue[] | null }[] | null;
}

export interface OtlpTraceRequest {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] | null }[] | null }[] | null;
}

interface MessageType<T> {
  decode(reader: Uint8Array): T;
  fromObject(object: Record<string, unknown>): T;
  encode(message: unknown): { finish(): Uint8Array };
  create(properties: Record<string, unknown>): unknown;
}

const traceV1 = (
  otlpRoot as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          trace: {
            v1: {
              ExportTraceServiceRequest: MessageType<OtlpTraceRequest>;
              ExportTraceServiceResponse: MessageType<unknown>;
            };
          };
        };
      };
    };
  }
).opentelemetry.proto.collector.trace.v1;

/**
 * google.rpc.Status (googleapis google/rpc/status.proto), the body of an OTLP/HTTP error answer: code and
 * message, with no details. Built with protobufjs's reflection, as no installed package ships it.
 */
const rpcStatus = new protobuf.Root()
  .define('google.rpc')
  .add(
    new protobuf.Type('Status')
      .add(new protobuf.Field('code', 1, 'int32'))
      .add(new protobuf.Field('message', 2, 'string')),
  )
  .lookupType('Status');

/** google.rpc.Code INVALID_ARGUMENT, the code of a request the server cannot read. */
const INVALID_ARGUMENT = 3;

/** A request body the server cannot read: answered 400 with this reason, and not to be retried. */
export class OtlpMalformedError extends Error {}

/** The media type the body is sent as: `protobuf`, `json`, or null for any other. */
export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding | null {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === OTLP_CONTENT_TYPES.protobuf) return 'protobuf';
  if (mediaType === OTLP_CONTENT_TYPES.json) return 'json';
  return null;
}

const gunzipAsync = promisify(gunzip);

export type OtlpContentCoding = 'identity' | 'gzip';

/** The Content-Encoding of the body: none, gzip (what OTLP exporters may use), or null for any other. */
export function otlpCodingOf(contentEncoding: string | undefined): OtlpContentCoding | null {
  const coding = contentEncoding?.trim().toLowerCase() || 'identity';
  return coding === 'identity' || coding === 'gzip' ? coding : null;
}

/**
 * The body as sent, uncompressed when the exporter gzipped it; never more than `maxBytes` once inflated,
 * so a small compressed body cannot expand past the route's limit.
 */
export async function inflate(body: Buffer, coding: OtlpContentCoding, maxBytes: number) {
  if (coding === 'identity') return body;
  try {
    return await gunzipAsync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new OtlpMalformedError(
        `The body is larger than ${maxBytes.toLocaleString('en')} bytes once uncompressed; send smaller batches`,
      );
    }
    throw new OtlpMalformedError('The body is not valid gzip, though Content-Encoding says gzip');
  }
}

const HEX_ID_FIELDS = ['traceId', 'spanId', 'parentSpanId'] as const;

/**
 * OTLP/JSON writes trace and span ids as hex where protobuf's JSON mapping would use base64
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding): they are turned into bytes before
 * protobufjs reads the rest. An id that is not hex is left as it is and refused later as an invalid id.
 */
function hexIdsToBytes(request: unknown) {
  const list = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value) ? value.filter((item) => typeof item === 'object' && item !== null) : [];
  for (const resource of list((request as { resourceSpans?: unknown }).resourceSpans)) {
    for (const scope of list(resource.scopeSpans)) {
      for (const span of list(scope.spans)) {
        for (const field of HEX_ID_FIELDS) {
          const id = span[field];
          if (typeof id === 'string' && /^([0-9a-fA-F]{2})*$/.test(id)) span[field] = Buffer.from(id, 'hex');
        }
      }
    }
  }
}

/** Reads an ExportTraceServiceRequest in either encoding; throws OtlpMalformedError with the reason. */
export function decodeTraceRequest(body: Buffer, encoding: OtlpEncoding): OtlpTraceRequest {
  const { ExportTraceServiceRequest } = traceV1;
  if (encoding === 'protobuf') {
    try {
      return ExportTraceServiceRequest.decode(body);
    } catch (error) {
      throw new OtlpMalformedError(
        `The body is not a protobuf ExportTraceServiceRequest: ${(error as Error).message}`,
      );
    }
  }
  const text = body.toString('utf8');
  const shape = jsonShapeProblem(text);
  if (shape) throw new OtlpMalformedError(shape);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new OtlpMalformedError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new OtlpMalformedError('The body must be a JSON object: {"resourceSpans": [...]}');
  }
  hexIdsToBytes(parsed);
  try {
    return ExportTraceServiceRequest.fromObject(parsed as Record<string, unknown>);
  } catch (error) {
    // protobufjs names the field: ".opentelemetry.proto.trace.v1.ResourceSpans.scopeSpans: array expected".
    throw new OtlpMalformedError(
      `The body is not an OTLP/JSON ExportTraceServiceRequest: ${(error as Error).message}`,
    );
  }
}

/** ExportTraceServiceResponse, with a partial success when some spans were rejected. */
export function encodeTraceResponse(
  encoding: OtlpEncoding,
  partial: { rejectedSpans: number; errorMessage: string } | null,
): Buffer | Record<string, unknown> {
  if (encoding === 'json') {
    // Proto3's JSON mapping: lowerCamelCase keys, 64-bit integers as strings.
    return partial
      ? {
          partialSuccess: {
            rejectedSpans: String(partial.rejectedSpans),
            errorMessage: partial.errorMessage,
          },
        }
      : {};
  }
  const { ExportTraceServiceResponse } = traceV1;
  const message = ExportTraceServiceResponse.create(partial ? { partialSuccess: partial } : {});
  return Buffer.from(ExportTraceServiceResponse.encode(message).finish());
}

/**
 * google.rpc.Status of a malformed request. The JSON form is also the API's error shape: its `code` is
 * INVALID_ARGUMENT written as a string ("3"), which proto3's JSON mapping accepts for an int32, so a
 * Status decoder and a client of the API's errors (`{detail, code, request_id}`, code a string) both read it.
 */
export function encodeBadRequest(
  encoding: OtlpEncoding,
  message: string,
  requestId: string,
): Buffer | Record<string, unknown> {
  if (encoding === 'json') {
    return { code: String(INVALID_ARGUMENT), message, details: [], detail: message, request_id: requestId };
  }
  return Buffer.from(rpcStatus.encode(rpcStatus.create({ code: INVALID_ARGUMENT, message })).finish());
}
