import { ApiError } from '@/lib/api-client';

/** Spec section 8: a panel's message for a failed load. */
export const SERVICE_NOT_AVAILABLE = 'Service not available';
export const GEMINI_NOT_AVAILABLE = 'Gemini metrics not available';
export const FAILED_TO_LOAD = 'Failed to load data';

/** HTTP 404 means the service is not there; anything else is a failed load. */
export function panelErrorMessage(error: unknown, notFoundMessage = SERVICE_NOT_AVAILABLE): string {
  return error instanceof ApiError && error.status === 404 ? notFoundMessage : FAILED_TO_LOAD;
}
