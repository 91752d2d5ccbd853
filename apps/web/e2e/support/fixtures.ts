import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from './constants';

export async function signIn(page: Page, username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);
}

/** An admin access token for arranging data through the public API. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/auth/login', {
    data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  });
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { access_token: string }).access_token;
}

let counter = 0;
/** A unique suffix so tests never collide on usernames or emails. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

export async function createUser(
  request: APIRequestContext,
  token: string,
  user: { username: string; password: string; roleName: string; name?: string },
) {
  const headers = { authorization: `Bearer ${token}` };
  const roles = (await (await request.get('/api/roles', { headers })).json()) as Array<{
    id: number;
    name: string;
  }>;
  const role = roles.find((r) => r.name === user.roleName);
  const response = await request.post('/api/users', {
    headers,
    data: {
      username: user.username,
      email: `${user.username}@example.com`,
      name: user.name ?? user.username,
      password: user.password,
      roles: [role!.id],
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number; username: string; name: string };
}
