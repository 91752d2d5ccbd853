import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@lumi/contract';
import { Secret, TOTP } from 'otpauth';

/** What authenticator apps show next to the code. */
const ISSUER = 'Lumi Admin';
/** RFC 6238's defaults, which every authenticator app supports. */
const PERIOD_SECONDS = 30;
/**
 * One step either side of now is accepted (RFC 6238, 5.2: allow for clock drift and the time a person
 * takes to type), and a step once used is never accepted again (the user's last step is stored).
 */
const WINDOW = 1;

/**
 * Two-factor secrets at rest, under keys derived from LUMI_SECRET (HKDF, a label each), so a copy of the
 * database alone yields neither: TOTP secrets sealed with AES-256-GCM (`v1.<iv>.<ciphertext+tag>`), and
 * recovery codes kept as an HMAC-SHA256, which, unlike a plain hash, cannot be searched for offline
 * (a code has about 50 bits; OWASP Password Storage Cheat Sheet, "peppering").
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly codeKey: Buffer;

  constructor(secret: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'lumi-admin totp secret', 32));
    this.codeKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'lumi-admin recovery code', 32));
  }

  /** What is stored of a recovery code: the same for every way of writing it (spaces, dashes, case). */
  recoveryCodeHash(code: string): string {
    return createHmac('sha256', this.codeKey).update(normalRecoveryCode(code)).digest('hex');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  open(sealed: string): string {
    const [version, iv, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !body) throw new Error('Unknown sealed secret format');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** A new secret (160 bits, RFC 4226's recommendation) in base32 and its `otpauth://` URL for a QR code. */
export function newTotpSecret(username: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 });
  const totp = new TOTP({ issuer: ISSUER, label: username, secret, period: PERIOD_SECONDS });
  return { secret: secret.base32, otpauthUrl: totp.toString() };
}

/** The time step of `code` if it is valid for `secret` at `nowMs` (within the window), otherwise null. */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    period: PERIOD_SECONDS,
    timestamp: nowMs,
    window: WINDOW,
  });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs }) + delta;
}

/** Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes of 10 characters (about 49 bits each), shown as `abcde-23456`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** The form a recovery code is hashed in: as the contract normalises it (no dash, lower case). */
export function normalRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}
