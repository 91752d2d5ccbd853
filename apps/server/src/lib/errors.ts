import type { ErrorCode, FieldError } from '@lumi/contract';

/** Typed errors thrown by services; the error plugin turns them into the one error shape. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[], detail = errors[0]?.message ?? 'The request is not valid') {
    super(422, 'validation_failed', detail, errors);
  }
  static field(path: string, message: string) {
    return new ValidationError([{ path, message }]);
  }
}

/**
 * A send request refused by the delivery pipeline: 422 like any validation error, with the id of the
 * delivery kept in state `refused` so the refusal can be found in the log.
 */
export class RefusedDeliveryError extends ValidationError {
  constructor(
    errors: FieldError[],
    detail: string,
    readonly deliveryId: number,
  ) {
    super(errors, detail);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(detail = 'Sign in to continue', code: ErrorCode = 'unauthenticated') {
    super(401, code, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string, code: ErrorCode = 'forbidden') {
    super(403, code, detail);
  }
}

export class NotFoundError extends AppError {
  constructor(detail: string) {
    super(404, 'not_found', detail);
  }
}

export class ConflictError extends AppError {
  /** `current`: the resource as it is now, so a client can show both sides of a concurrent edit. */
  constructor(
    detail: string,
    readonly current?: unknown,
  ) {
    super(409, 'conflict', detail);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, 'too_many_requests', detail, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}

/** A temporary refusal (503): the same request may succeed after `retryAfterSeconds`. */
export class ServiceUnavailableError extends AppError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(503, 'service_unavailable', detail, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}

/**
 * Whether a failure is a refusal of the request itself (a 4xx other than 429), which asking again would
 * not change. Anything else is temporary: not an AppError (the database), a 5xx (a render given up for
 * load answers 503) or a 429 (a queue full for a moment); a job retries those instead of recording the
 * request as refused.
 */
export function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.statusCode < 500 && error.statusCode !== 429;
}
