import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { GEMINI_NOT_AVAILABLE, panelErrorMessage } from './panel-error';

describe('panelErrorMessage', () => {
  it.each([
    { name: '404', error: new ApiError(404, 'Not Found', undefined), expected: 'Service not available' },
    { name: '500', error: new ApiError(500, 'Boom', undefined), expected: 'Failed to load data' },
    { name: '403', error: new ApiError(403, 'Forbidden', undefined), expected: 'Failed to load data' },
    { name: 'network', error: new TypeError('Failed to fetch'), expected: 'Failed to load data' },
  ])('$name: $expected', ({ error, expected }) => {
    expect(panelErrorMessage(error)).toBe(expected);
  });

  it('uses the Gemini wording for a missing Gemini service', () => {
    expect(panelErrorMessage(new ApiError(404, 'Not Found', undefined), GEMINI_NOT_AVAILABLE)).toBe(
      'Gemini metrics not available',
    );
  });
});
