import { z } from 'zod';
import {
  emailField,
  ID_MAX,
  idSchema,
  MESSAGES,
  nameField,
  passwordField,
  usernameField,
  wholeNumberText,
} from './fields.js';

export const USER_PAGE_SIZE = 20;
export const USER_PAGE_MAX = 100;

export const userRoleRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const userSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    name: z.string(),
    roles: z.array(userRoleRefSchema),
    is_active: z.boolean(),
    two_factor_enabled: z.boolean(),
    /** An admin set a temporary password that the user has not changed yet. */
    password_change_required: z.boolean(),
    last_login: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const userListQuerySchema = z.object({
  page: wholeNumberText().pipe(z.number().int().min(1).max(ID_MAX)).default(1),
  limit: wholeNumberText().pipe(z.number().int().min(1).max(USER_PAGE_MAX)).default(USER_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const userListResponseSchema = z.object({
  users: z.array(userSchema),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type UserListResponse = z.infer<typeof userListResponseSchema>;

const roleIdsField = z.array(idSchema, { error: MESSAGES.rolesRequired }).min(1, MESSAGES.rolesRequired);

export const createUserSchema = z.object({
  username: usernameField,
  email: emailField,
  name: nameField,
  password: passwordField(MESSAGES.passwordRequired),
  roles: roleIdsField,
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

export const updateUserSchema = z.object({
  email: emailField,
  name: nameField,
  roles: roleIdsField,
  is_active: z.boolean().optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

/** The Create New User form: the API payload plus a confirmation checked in the browser. */
export const createUserFormSchema = createUserSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    error: MESSAGES.passwordsMismatch,
  });
export type CreateUserFormValues = z.input<typeof createUserFormSchema>;
