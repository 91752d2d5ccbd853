import { randomBytes } from 'node:crypto';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyContent,
  type ApiKeyCreated,
  type ApiKeyCreateValues,
  type ApiKeyScope,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import type { ApiKeyRow } from '../../db/telemetry-tables.js';
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { sha256 } from '../../lib/tokens.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import * as repo from './api-keys.repository.js';
import { redactionPatternProblem } from './redaction-patterns.js';

/** What the auth hook knows about a request made with an API key. */
export interface ApiKeyPrincipal {
  id: number;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's content settings as ingestion applies them; null when it does not capture content. */
  capture: { redactions: string[] } | null;
}

/** `lumi_` and this many characters are kept as the key's visible prefix. */
const PREFIX_LENGTH = API_KEY_PREFIX.length + 7;
/** last_used_at is written at most this often per key: a busy bot must not turn every request into a write. */
const LAST_USED_RESOLUTION_MS = 60 * 1000;

function statusOf(row: ApiKeyRow, now: number): ApiKey['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && Date.parse(row.expires_at) <= now) return 'expired';
  return 'active';
}

function toApiKey(row: ApiKeyRow, now: number): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as ApiKeyScope[],
    created_at: row.created_at,
    created_by: row.created_by,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    capture_content: row.capture_content === 1,
    content_redactions: JSON.parse(row.content_redactions) as string[],
    status: statusOf(row, now),
  };
}

/** Each pattern checked (redaction-patterns.ts); the first problem is the field's message. */
function checkPatterns(patterns: string[]): void {
  patterns.forEach((pattern, index) => {
    const problem = redactionPatternProblem(pattern);
    if (problem) throw ValidationError.field(`content_redactions.${index}`, problem);
  });
}

/**
 * The bots' API keys. A key that was checked is reused by its hash (`checked`) for LUMI_AUTH_CACHE_SECONDS
 * at most and never past its expiry, so a bot's requests (thousands of allowance checks a second) do not
 * each read the key from the database. Revoking a key or changing its content settings calls `changed`
 * after the commit, which publishes the `api-keys` invalidation (modules/cluster/invalidation.ts): this
 * instance forgets its keys at once and every other instance within milliseconds, as a sign-out does
 * (docs/operators/configuration.md, `LUMI_AUTH_CACHE_SECONDS`).
 */
export class ApiKeysService {
  /** When this instance last wrote last_used_at, per key id. */
  private readonly lastTouched = new Map<number, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly checked: PrincipalCache<ApiKeyPrincipal>,
    private readonly changed: () => Promise<void>,
  ) {}

  async list(): Promise<ApiKey[]> {
    const now = this.now();
    return (await repo.listKeys(this.db)).map((row) => toApiKey(row, now));
  }

  /** One key, revoked or not; 404 when there is none. */
  async get(id: number): Promise<ApiKey> {
    const row = await repo.findKey(this.db, id);
    if (!row) throw new NotFoundError(`There is no API key ${id}`);
    return toApiKey(row, this.now());
  }

  /** Creates a key and returns it this once; only its SHA-256 is stored. */
  async create(actor: Actor, values: ApiKeyCreateValues): Promise<ApiKeyCreated> {
    const now = this.now();
    const expiresAt = values.expires_at ? new Date(values.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= now) {
      throw ValidationError.field('expires_at', API_KEY_MESSAGES.expiresInPast);
    }
    checkPatterns(values.content_redactions);
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    return this.db.transaction().execute(async (trx) => {
      // Names are unique among keys not revoked, which no index can say on both databases: requests for
      // one name take turns (engineering guide 15).
      await lockForTransaction(trx, [`api-key-name:${values.name.toLowerCase()}`]);
      if (await repo.findUnrevokedByName(trx, values.name)) {
        throw new ConflictError(
          `A key named '${values.name}' exists already; revoke it or choose another name`,
        );
      }
      const row = {
        name: values.name,
        prefix: key.slice(0, PREFIX_LENGTH),
        key_hash: sha256(key),
        scopes: JSON.stringify(values.scopes),
        created_at: isoTime(now),
        created_by: actor.username,
        last_used_at: null,
        expires_at: expiresAt?.toISOString() ?? null,
        revoked_at: null,
        capture_content: values.capture_content ? 1 : 0,
        content_redactions: JSON.stringify(values.content_redactions),
      };
      const id = await repo.insertKey(trx, row);
      await this.audit.record(trx, actor, {
        action: 'api_key.created',
        resourceType: 'api_key',
        resourceId: id,
        resourceName: row.name,
        newValue: {
          name: row.name,
          prefix: row.prefix,
          scopes: values.scopes,
          expires_at: row.expires_at,
          capture_content: values.capture_content,
          content_redactions: values.content_redactions,
        },
      });
      return { ...toApiKey({ ...row, id }, now), key };
    });
  }

  /**
   * Changes whether the key's calls keep their content, and the patterns redacted first
   * (docs/operators/metrics.md, "Content of calls"); from the key's next batch on. A revoked key is 409.
   */
  async setContent(actor: Actor, id: number, values: ApiKeyContent): Promise<ApiKey> {
    checkPatterns(values.content_redactions);
    const now = this.now();
    const key = await this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [`api-key:${id}`]);
      const before = await repo.findKey(trx, id);
      if (!before) throw new NotFoundError(`There is no API key ${id}`);
      if (before.revoked_at) {
        throw new ConflictError(`The key '${before.name}' was revoked; its settings can no longer change`);
      }
      const old = toApiKey(before, now);
      const changed =
        old.capture_content !== values.capture_content ||
        JSON.stringify(old.content_redactions) !== JSON.stringify(values.content_redactions);
      if (!changed) return old;
      const row = {
        capture_content: values.capture_content ? 1 : 0,
        content_redactions: JSON.stringify(values.content_redactions),
      };
      await repo.updateKeyContent(trx, id, row);
      await this.audit.record(trx, actor, {
        action: 'api_key.content_changed',
        resourceType: 'api_key',
        resourceId: id,
        resourceName: before.name,
        oldValue: { capture_content: old.capture_content, content_redactions: old.content_redactions },
        newValue: values,
      });
      return toApiKey({ ...before, ...row }, now);
    });
    await this.changed();
    return key;
  }

  /** Revokes at once: the next request with the key is refused. Revoking a revoked key changes nothing. */
  async revoke(actor: Actor, id: number): Promise<ApiKey> {
    const now = this.now();
    const key = await this.db.transaction().execute(async (trx) => {
      const before = await repo.findKey(trx, id);
      if (!before) throw new NotFoundError(`There is no API key ${id}`);
      if (before.revoked_at) return toApiKey(before, now);
      const at = isoTime(now);
      // A parallel revoke may have got there first: it audited the revocation, so this one answers alike.
      if (!(await repo.revokeKey(trx, id, at))) {
        const revoked = await repo.findKey(trx, id);
        if (!revoked) throw new NotFoundError(`There is no API key ${id}`);
        return toApiKey(revoked, now);
      }
      await this.audit.record(trx, actor, {
        action: 'api_key.revoked',
        resourceType: 'api_key',
        resourceId: id,
        resourceName: before.name,
        oldValue: { name: before.name, prefix: before.prefix, revoked_at: null },
        newValue: { name: before.name, prefix: before.prefix, revoked_at: at },
      });
      return toApiKey({ ...before, revoked_at: at }, now);
    });
    await this.changed();
    return key;
  }

  /** The key behind a `lumi_…` bearer token; unknown, revoked and expired keys are refused with a reason. */
  async authenticate(token: string): Promise<ApiKeyPrincipal> {
    const hash = sha256(token);
    const known = this.checked.get(hash);
    if (known) {
      await this.recordUse(known.id, this.now());
      return known;
    }
    const generation = this.checked.begin();
    const row = await repo.findKeyByHash(this.db, hash);
    if (!row) throw new UnauthenticatedError('This API key is not valid. Check that it was copied whole.');
    const now = this.now();
    if (row.revoked_at) {
      throw new UnauthenticatedError(`This API key ('${row.name}') was revoked on ${row.revoked_at}`);
    }
    if (statusOf(row, now) === 'expired') {
      throw new UnauthenticatedError(`This API key ('${row.name}') expired on ${row.expires_at}`);
    }
    await this.recordUse(row.id, now);
    const principal: ApiKeyPrincipal = {
      id: row.id,
      name: row.name,
      scopes: JSON.parse(row.scopes) as ApiKeyScope[],
      capture:
        row.capture_content === 1 ? { redactions: JSON.parse(row.content_redactions) as string[] } : null,
    };
    this.checked.set(hash, principal, row.expires_at ? Date.parse(row.expires_at) : Infinity, generation);
    return principal;
  }

  private async recordUse(id: number, now: number): Promise<void> {
    const last = this.lastTouched.get(id);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    await repo.touchKey(this.db, id, isoTime(now), isoAfter(-LAST_USED_RESOLUTION_MS, now));
  }
}
