import { z } from 'zod';
import { ALL_PERMISSIONS, PERMISSIONS } from './permissions.js';

export const permissionGrantSchema = z.enum([...PERMISSIONS, ALL_PERMISSIONS]);

export const roleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    permissions: z.array(z.string()),
    built_in: z.boolean(),
    user_count: z.number().int(),
    /** Its users must sign in with two factors; those without are sent to set it up first. */
    require_two_factor: z.boolean(),
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof roleSchema>;

export const roleListResponseSchema = z.array(roleSchema);

export const ROLE_MESSAGES = {
  nameRequired: 'Role name is required',
  nameFormat: 'Role name may contain only lowercase letters, digits, dashes and underscores (at most 40)',
  permissionsRequired: 'Choose at least one permission',
} as const;

export const roleInputSchema = z.object({
  name: z
    .string({ error: ROLE_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: ROLE_MESSAGES.nameRequired, abort: true })
    .regex(/^[a-z0-9_-]{1,40}$/, ROLE_MESSAGES.nameFormat),
  description: z.string().trim().max(200).default(''),
  permissions: z
    .array(permissionGrantSchema, { error: ROLE_MESSAGES.permissionsRequired })
    .min(1, ROLE_MESSAGES.permissionsRequired),
  /** Omitted: false for a new role, unchanged on an update. The only field a built-in role lets change. */
  require_two_factor: z.boolean().optional(),
});
export type RoleInput = z.infer<typeof roleInputSchema>;
