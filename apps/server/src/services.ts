import type { Kysely } from 'kysely';
import type { Database } from './db/database.js';
import type { PasswordHasher } from './lib/password.js';
import { AuditService } from './modules/audit/audit.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { ConfigItemsService } from './modules/config-items/config-items.service.js';
import { RolesService } from './modules/roles/roles.service.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import { UsersService } from './modules/users/users.service.js';

export interface Services {
  audit: AuditService;
  roles: RolesService;
  sessions: SessionsService;
  users: UsersService;
  auth: AuthService;
  configItems: ConfigItemsService;
}

/** Wires the services together; each module reaches another only through these. */
export function createServices(options: {
  db: Kysely<Database>;
  secret: Uint8Array;
  hasher: PasswordHasher;
  sessionSeconds: number;
}): Services {
  const { db, secret, hasher } = options;
  const audit = new AuditService(db);
  const roles = new RolesService(db, audit);
  const sessions = new SessionsService(db, options.sessionSeconds * 1000);
  const users = new UsersService(db, hasher, roles, sessions, audit);
  const auth = new AuthService(db, secret, hasher, users, sessions, audit);
  const configItems = new ConfigItemsService(db, audit);
  return { audit, roles, sessions, users, auth, configItems };
}
