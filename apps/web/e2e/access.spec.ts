import { expect, test } from '@playwright/test';
import { adminToken, createUser, signIn, unique } from './support/fixtures';

test('a viewer sees neither Users nor Admin and is denied the Administration screen', async ({
  page,
  request,
}) => {
  const username = unique('viewer');
  const password = 'Viewer-Pass-8812';
  await createUser(request, await adminToken(request), { username, password, roleName: 'viewer' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, username, password);

  const nav = page.getByRole('navigation').first();
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  await page.goto('/admin/admin');
  await expect(page.getByText('Access Denied')).toBeVisible();
});
