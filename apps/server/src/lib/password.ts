import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

/**
 * At most this many hashes run at once in the process, leaving a core to the event loop: a burst of
 * sign-ins (each hash is ~128 MB and a quarter second of CPU at the production cost) waits its turn
 * instead of starving every other request.
 */
export const HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
const hashing = pLimit(HASH_CONCURRENCY);

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return hashing(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP ASVS 5.0 / OWASP Password Storage Cheat Sheet: scrypt with N = 2^17, r = 8, p = 1. */
export const PRODUCTION_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

/**
 * Hashes are stored as `scrypt$N$r$p$salt$hash` (base64), so a hash made with other parameters still
 * verifies. Runs on libuv's thread pool, never blocking the event loop.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly cost: ScryptCost = PRODUCTION_COST) {}

  private options(cost: ScryptCost): ScryptOptions {
    return { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, this.options(this.cost));
    const { N, r, p } = this.cost;
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) return false;
    const cost = { N: Number(n), r: Number(r), p: Number(p) };
    const expected = Buffer.from(hash, 'base64');
    try {
      const actual = await scrypt(
        password.normalize('NFKC'),
        Buffer.from(salt, 'base64'),
        expected.length,
        this.options(cost),
      );
      return timingSafeEqual(actual, expected);
    } catch {
      // A stored value with impossible parameters cannot match anything.
      return false;
    }
  }

  /** Spends the same time as a real check, so unknown usernames cannot be told apart by timing. */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(password, await this.dummyHash);
    return false;
  }
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
