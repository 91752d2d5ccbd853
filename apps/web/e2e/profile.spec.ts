import { expect, test } from '@playwright/test';
import { adminToken, createUser, signIn, unique } from './support/fixtures';

test('saves the profile', async ({ page, request }) => {
  const username = unique('prof');
  const password = 'Profile-Pass-3381';
  await createUser(request, await adminToken(request), { username, password, roleName: 'viewer' });
  await signIn(page, username, password);
  await page.goto('/admin/profile');
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await expect(page.getByText('Username cannot be changed')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('Pat Profile');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Changes saved successfully')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Pat Profile');
});

test('changing the password signs out after two seconds', async ({ page, request }) => {
  const username = unique('pwchange');
  const password = 'Before-Change-7720';
  const next = 'After-Change-9931';
  await createUser(request, await adminToken(request), { username, password, roleName: 'viewer' });
  await signIn(page, username, password);
  await page.goto('/admin/profile');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByLabel('Current Password').fill(password);
  await page.getByLabel('New Password', { exact: true }).fill(next);
  await page.getByLabel('Confirm New Password').fill(next);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(
    page.getByText('Password changed successfully. Please log in with your new password.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);

  await signIn(page, username, next);
});
