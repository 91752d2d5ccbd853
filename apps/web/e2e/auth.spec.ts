import { expect, test } from '@playwright/test';
import { adminToken, createUser, signIn, unique } from './support/fixtures';

test('signs in and lands on the overview', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('button', { name: /admin/i }).first()).toBeVisible();
});

test('a wrong password shows the authentication error', async ({ page, request }) => {
  const username = unique('wrongpw');
  await createUser(request, await adminToken(request), {
    username,
    password: 'Correct-Horse-42',
    roleName: 'viewer',
  });
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Authentication failed');
  await expect(alert).toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('the session survives a reload and sign out ends it', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/profile');
  await page.reload();
  await expect(page).toHaveURL(/\/admin\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();

  await page
    .getByRole('button', { name: /user menu|admin/i })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('a refresh whose answer never arrived does not end the session', async ({ page, context, request }) => {
  await signIn(page);
  const cookie = (await context.cookies()).find((c) => c.name === 'lumi_refresh');
  expect(cookie).toBeDefined();
  // The server rotates the token, but its answer (the successor) never reaches the browser, as when the page
  // reloads while its refresh runs. The browser then presents the rotated token once more.
  const lost = await request.post('/api/auth/refresh', {
    headers: { cookie: `lumi_refresh=${cookie!.value}` },
    data: {},
  });
  expect(lost.status()).toBe(200);
  await page.goto('/admin/profile');
  await expect(page).toHaveURL(/\/admin\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
});

test('a signed-out visitor returns to the page they asked for after signing in', async ({ page }) => {
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('E2e-Lantern-Orbit-7731');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
});
