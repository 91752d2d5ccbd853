import { z } from 'zod';

/** Field shapes the telemetry schemas share; not part of the contract's exports. */

export const timestamp = z.iso.datetime({
  offset: true,
  error: 'Must be an ISO 8601 time with Z or an offset',
});
/** A name the bot reports; the message reads as every other required field's does ("Provider is required"). */
export const label = (field: string, max: number) =>
  z.string().trim().min(1, `${field} is required`).max(max);
