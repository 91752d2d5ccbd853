import { HTTP_STATUS } from './otlp-conventions.js';
import type { OtlpAnyValue, OtlpSpan } from './otlp-wire.js';

/**
 * Why a failed model call failed, in the words the LLM errors panel counts and the bot SDK reports
 * (docs/bot-developers/ingestion.md, "Who and what an LLM call was for": `rate_limited`, `timeout` …), so
 * one failure reads alike whichever instrumentation saw it. Read from the HTTP status the span names or its
 * error message starts with; else from the official clients' error classes; else the convention's own name
 * for the error (`error.type`, the exception event's `exception.type`) as it is.
 */

const EXCEPTION_EVENT = 'exception';

/** The error classes of the official OpenAI, Anthropic and Google clients, and what they stand for. */
const CLIENT_ERRORS: Record<string, string> = {
  RateLimitError: 'rate_limited',
  InternalServerError: 'server_error',
  APIConnectionError: 'connection',
  APIConnectionTimeoutError: 'timeout',
  APITimeoutError: 'timeout',
  AuthenticationError: 'auth',
  PermissionDeniedError: 'auth',
  BadRequestError: 'bad_request',
  NotFoundError: 'bad_request',
  UnprocessableEntityError: 'bad_request',
  AbortError: 'aborted',
  APIUserAbortError: 'aborted',
};

/** The status's meaning, as the bot SDK names it (packages/bot-sdk/src/llm/report.ts). */
export function errorTypeOfStatus(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/**
 * An HTTP error status in a message, as the clients write them: "429 Rate limit reached …" (OpenAI,
 * Anthropic), `{"error":{"code":429 …` (Google), "status code 529".
 */
function statusIn(message: string | undefined): number | null {
  if (!message) return null;
  const found =
    /^(\d{3})\b/.exec(message) ??
    /"code":\s*(\d{3})\b/.exec(message) ??
    /\bstatus(?: code)?:? (\d{3})\b/i.exec(message);
  const status = found ? Number(found[1]) : NaN;
  return status >= 400 && status < 600 ? status : null;
}

const text = (value: OtlpAnyValue | null | undefined) =>
  value?.value === 'stringValue' && value.stringValue ? value.stringValue : undefined;
const number = (value: OtlpAnyValue | null | undefined) =>
  value?.value === 'intValue'
    ? Number(value.intValue)
    : value?.value === 'stringValue'
      ? Number(value.stringValue)
      : NaN;

/** The failure's type, or undefined when the span says nothing of it. */
export function failureType(
  span: OtlpSpan,
  attributes: Map<string, OtlpAnyValue>,
  errorType: unknown,
): unknown {
  const exception = span.events?.find((event) => event.name === EXCEPTION_EVENT);
  const exceptionAttribute = (key: string) => exception?.attributes?.find((a) => a.key === key)?.value;
  for (const key of HTTP_STATUS) {
    const status = number(attributes.get(key));
    if (status >= 400 && status < 600) return errorTypeOfStatus(status);
  }
  const status =
    statusIn(text(exceptionAttribute('exception.message'))) ??
    statusIn(span.status?.message ?? undefined) ??
    (typeof errorType === 'string' && /^\d{3}$/.test(errorType) ? Number(errorType) : null);
  if (status !== null) return errorTypeOfStatus(status);
  const name = errorType ?? text(exceptionAttribute('exception.type'));
  return typeof name === 'string' ? (CLIENT_ERRORS[name] ?? name) : name;
}
