/**
 * The permission catalogue (spec section 6; docs/operators/security.md, "Permissions and the audit log").
 * Server routes name one of these; the console hides controls with the same names.
 */
export const PERMISSIONS = [
  'users:read',
  'users:write',
  'admin:audit:read',
  'config:read',
  'config:write',
  'metrics:read',
  'llm:content:read',
  'budgets:write',
  'limits:write',
  'templates:read',
  'templates:write',
  'templates:send',
  'channels:write',
  'admin:keys:write',
  'alerts:read',
  'alerts:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
export const ALL_PERMISSIONS = '*';
export type PermissionGrant = Permission | typeof ALL_PERMISSIONS;

export const PERMISSION_LABELS: Record<Permission, string> = {
  'users:read': 'View users and roles',
  'users:write': 'Manage users and roles',
  'admin:audit:read': 'Read the audit log',
  'config:read': 'View bot configuration',
  'config:write': 'Change bot configuration',
  'metrics:read': 'View metrics',
  'llm:content:read': 'Read the prompts and completions of LLM calls, where an API key captures them',
  'budgets:write': 'Change token budgets and prices',
  'limits:write': 'Change spend limits, bans and allowlists of chats and users',
  'templates:read': 'View message templates',
  'templates:write': 'Change message templates',
  'templates:send': 'Send messages: test sends, Send now, and the delivery queue (queue, cancel, retry)',
  'channels:write': 'Manage channels and topics',
  'admin:keys:write': 'Manage API keys',
  'alerts:read': 'View alert rules, contact points, silences and history',
  'alerts:write': 'Manage alert rules, contact points and silences',
};

export const ADMIN_ROLE = 'admin';

/** Seeded roles. The admin role is built in and cannot be changed or deleted. */
export const SEEDED_ROLES: ReadonlyArray<{
  name: string;
  description: string;
  permissions: PermissionGrant[];
}> = [
  { name: ADMIN_ROLE, description: 'Full access to everything', permissions: [ALL_PERMISSIONS] },
  {
    name: 'operator',
    description: 'Runs the bot day to day',
    permissions: [
      'metrics:read',
      'config:read',
      'config:write',
      'templates:read',
      'templates:write',
      'templates:send',
      'channels:write',
      'budgets:write',
      'limits:write',
      'alerts:read',
      'alerts:write',
    ],
  },
  {
    name: 'viewer',
    description: 'Read-only access to metrics, configuration and templates',
    permissions: ['metrics:read', 'config:read', 'templates:read', 'alerts:read'],
  },
];

export interface RoleGrant {
  name: string;
  permissions: readonly string[];
}

/**
 * Spec section 6: role 'admin' passes every check; any other role passes only if its permission list
 * contains the permission or '*'. A user without a roles list fails every check.
 */
export function hasPermission(
  roles: readonly RoleGrant[] | null | undefined,
  permission: Permission,
): boolean {
  if (!Array.isArray(roles)) return false;
  return roles.some(
    (role) =>
      role.name === ADMIN_ROLE ||
      role.permissions.includes(ALL_PERMISSIONS) ||
      role.permissions.includes(permission),
  );
}

/**
 * What a bot's API key may do (docs/bot-developers/ingestion.md, "API keys"). A key reaches only routes that
 * name one of its scopes; no key reaches user, role, audit or key management routes.
 */
export const API_KEY_SCOPES = [
  'ingest:write',
  'config:read',
  'templates:read',
  'messages:send',
  'allowance:read',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope lets a key do, in the words the Create API Key dialog shows under each checkbox. */
export const API_KEY_SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  'ingest:write':
    'Report telemetry: LLM calls, integration calls, cache reports, heartbeats, errors and market data.',
  'config:read': 'Read the bot configuration (personalities, feature flags, moods and the rest).',
  'templates:read': 'Render message templates with the bot’s own data, ready to post to Telegram.',
  'messages:send': 'Send messages through Lumi: queue a template with data for delivery to Telegram.',
  'allowance:read':
    'Ask whether a chat or user may make an LLM call now (limits, bans and allowlists), and keep a copy of them.',
};
