import { expect, test } from '@playwright/test';
import { adminToken, createUser, signIn, unique } from './support/fixtures';

test('creates, searches, edits and deletes a user', async ({ page }) => {
  const username = unique('alice');
  await signIn(page);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Add User' }).click();
  const create = page.getByRole('dialog', { name: 'Create New User' });
  await create.getByRole('button', { name: 'Create User' }).click();
  await expect(create.getByText('Username is required')).toBeVisible();

  await create.getByLabel('Username').fill(username);
  await create.getByLabel('Email').fill(`${username}@example.com`);
  await create.getByLabel('Full Name').fill('Alice Example');
  await create.getByLabel('Password', { exact: true }).fill('Tidy-Garden-5519');
  await create.getByLabel('Confirm Password').fill('Tidy-Garden-5519');
  await create.getByLabel('operator').check();
  await create.getByRole('button', { name: 'Create User' }).click();
  await expect(create).toBeHidden();

  await page.getByPlaceholder('Search users...').fill(username);
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('operator');
  await expect(row).toContainText('Never');

  await row.getByRole('button', { name: /edit/i }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByLabel('Username')).toHaveValue(username);
  await edit.getByLabel('Full Name').fill('Alice Renamed');
  await edit.getByRole('button', { name: 'Update User' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('row', { name: /Alice Renamed/ })).toBeVisible();

  await page
    .getByRole('row', { name: /Alice Renamed/ })
    .getByRole('button', { name: /delete/i })
    .click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(
    'Are you sure you want to delete Alice Renamed? This action cannot be undone.',
  );
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No users found')).toBeVisible();
});

test('pages through users', async ({ page, request }) => {
  // 21 accounts hashed with the production scrypt cost: slow on a busy two-core machine.
  test.slow();
  const token = await adminToken(request);
  const prefix = unique('pager');
  for (let i = 0; i < 21; i += 1) {
    await createUser(request, token, {
      username: `${prefix}x${String(i).padStart(2, '0')}`,
      password: 'Paging-Pass-4410',
      roleName: 'viewer',
    });
  }
  await signIn(page);
  await page.goto('/admin/users');
  await page.getByPlaceholder('Search users...').fill(prefix);
  // The search is debounced: wait until it is applied, or 'Page 1 of 2' may describe the unfiltered list.
  await expect(page).toHaveURL(new RegExp(`search=${prefix}`));
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`${prefix}x20`) })).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
});

test('the signed-in user cannot edit or delete their own row', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/users');
  await page.getByPlaceholder('Search users...').fill('admin@localhost');
  const own = page.getByRole('row', { name: /@admin/ });
  await expect(own.getByRole('button', { name: /edit/i })).toBeDisabled();
  await expect(own.getByRole('button', { name: /delete/i })).toBeDisabled();
});
