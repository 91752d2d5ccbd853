import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { whileLocked } from './db/locks.js';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { generatePassword } from './lib/password.js';
import type { Services } from './services.js';

/** LUMI_SECRET, or a key generated once and kept in DATA_DIR with mode 0600. */
export function loadSecret(config: Config): Uint8Array {
  if (config.LUMI_SECRET) return new TextEncoder().encode(config.LUMI_SECRET);
  const file = path.join(config.DATA_DIR, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export async function openAndMigrate(config: Config): Promise<DatabaseHandle> {
  const handle = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: path.join(config.DATA_DIR, 'lumi.db'),
  });
  await migrateToLatest(handle);
  return handle;
}

/**
 * Seeds the roles, the template variable catalogue (when empty), the `alert` template (when a channel
 * exists and no template has that name) and, when no user exists, the first admin. Returns the password to
 * print, if generated.
 */
export async function seed(
  db: Kysely<Database>,
  services: Services,
  config: Config,
): Promise<{ created: boolean; password?: string }> {
  // Several instances may start at once on one PostgreSQL database: one seeds, the others find it done.
  return whileLocked(db, 'lumi:seed', async () => {
    await services.roles.seed();
    await services.messaging.variables.seed();
    await services.alerts.templates.seed();
    if ((await services.users.countUsers()) > 0) return { created: false };
    const password = config.LUMI_ADMIN_PASSWORD ?? generatePassword();
    const created = await services.users.createFirstAdmin(config.LUMI_ADMIN_USERNAME, password);
    return { created, password: created && !config.LUMI_ADMIN_PASSWORD ? password : undefined };
  });
}
