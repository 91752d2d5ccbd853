import { describe, expect, it } from 'vitest';
import { hasPermission, PERMISSIONS, SEEDED_ROLES, type Permission, type RoleGrant } from './permissions.js';

const admin: RoleGrant = { name: 'admin', permissions: [] };
const wildcard: RoleGrant = { name: 'superuser', permissions: ['*'] };
const viewer: RoleGrant = { name: 'viewer', permissions: ['metrics:read', 'config:read'] };
const auditor: RoleGrant = { name: 'auditor', permissions: ['admin:audit:read'] };

describe('hasPermission (spec section 6)', () => {
  it.each<[string, readonly RoleGrant[] | null | undefined, Permission, boolean]>([
    ['the admin role, whatever its list', [admin], 'users:write', true],
    ['the admin role, for any permission', [admin], 'admin:keys:write', true],
    ["a role granting '*'", [wildcard], 'users:write', true],
    ['a role listing the permission', [viewer], 'config:read', true],
    ['a role not listing the permission', [viewer], 'config:write', false],
    ['one of several roles listing it', [viewer, auditor], 'admin:audit:read', true],
    ['several roles none of which lists it', [viewer, auditor], 'users:read', false],
    ['no roles at all', [], 'metrics:read', false],
    ['a missing roles list (null)', null, 'metrics:read', false],
    ['a missing roles list (undefined)', undefined, 'metrics:read', false],
    [
      'a role whose name only resembles admin',
      [{ name: 'administrator', permissions: [] }],
      'users:read',
      false,
    ],
  ])('%s -> %s', (_label, roles, permission, expected) => {
    expect(hasPermission(roles, permission)).toBe(expected);
  });
});

describe('seeded roles', () => {
  const seeded = (name: string) => SEEDED_ROLES.find((r) => r.name === name)!;

  it('admin passes every check', () => {
    for (const permission of PERMISSIONS) expect(hasPermission([seeded('admin')], permission)).toBe(true);
  });

  it.each([
    [
      'operator',
      [
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
    ],
    ['viewer', ['metrics:read', 'config:read', 'templates:read', 'alerts:read']],
  ])('%s has exactly its permissions', (name, granted) => {
    const allowed = PERMISSIONS.filter((permission) => hasPermission([seeded(name)], permission));
    expect([...allowed].sort()).toEqual([...granted].sort());
  });
});
