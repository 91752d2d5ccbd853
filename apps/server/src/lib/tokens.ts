import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (256 bits) for refresh tokens and session ids. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
