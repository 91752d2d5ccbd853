import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import { readFileSync } from 'node:fs';
import { adminToken, createUser, signIn, unique } from './support/fixtures';

interface ItemBody {
  name: string;
  content: Record<string, unknown> | string;
  priority?: number;
  tags?: string[];
  is_active?: boolean;
}

/** Arranges an item through the public API, as the tests' starting point. */
async function createItem(request: APIRequestContext, domain: string, body: ItemBody) {
  const response = await request.post(`/api/admin/api/config/${domain}`, {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: body,
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as ItemBody & { id: number; version: number; description: string };
}

/**
 * Replaces the content of the Monaco editor in `dialog`: empties it, then enters the text as one input
 * event on a single line, so Monaco's auto-indent, auto-closing and auto-surround leave it as typed.
 */
async function setContent(page: Page, dialog: Locator, text: string) {
  const editor = dialog.locator('.monaco-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+KeyA');
  await page.keyboard.press('Delete');
  await expect(editor.locator('.view-lines')).toHaveText('');
  await page.keyboard.insertText(text);
  await expect(editor.locator('.view-lines')).toHaveText(text);
}

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

/** The Priority cell of a row (a wide screen, for a writer: Select, Name, Content, Tags, Priority, Active, Actions). */
function priorityOf(page: Page, name: string) {
  return row(page, name).getByRole('cell').nth(4);
}

async function openAsAdmin(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page);
  await page.goto(url);
  return { context, page };
}

test('adds, edits in both content modes, toggles and deletes an item', async ({ page }) => {
  const name = unique('quirk');
  await signIn(page);
  await page.goto('/admin/config?tab=quirks');
  await expect(page.getByRole('heading', { level: 1, name: 'Configuration Management' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Quirks' })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: 'Add Item' }).click();
  const add = page.getByRole('dialog', { name: 'Add Item' });
  await add.getByRole('button', { name: 'Create' }).click();
  await expect(add.getByText('Name is required')).toBeVisible();
  await add.getByLabel('Name').fill(name);
  await add.getByRole('radio', { name: 'JSON' }).click();
  await setContent(page, add, '{"level": 1}');
  await add.getByLabel('Priority').fill('4');
  await add.getByLabel('Tags').fill('odd, loud , , rare');
  await add.getByRole('button', { name: 'Create' }).click();
  await expect(add).toBeHidden();
  await expect(row(page, name)).toContainText('{"level":1}');
  await expect(row(page, name)).toContainText('oddloud+1');
  await expect(priorityOf(page, name)).toHaveText('4');

  await row(page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(edit.getByRole('radio', { name: 'JSON' })).toBeChecked();
  await setContent(page, edit, 'level: high');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Invalid JSON in content field')).toBeVisible();
  await edit.getByRole('radio', { name: 'Text' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row(page, name)).toContainText('level: high');

  await row(page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  await expect(edit.getByRole('radio', { name: 'Text' })).toBeChecked();
  await edit.getByRole('radio', { name: 'JSON' }).click();
  await setContent(page, edit, '{"level": 2, "loud": true}');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row(page, name)).toContainText('{"level":2,"loud":true}');

  const active = row(page, name).getByRole('switch', { name: `Active: ${name}` });
  await expect(active).toBeChecked();
  await active.click();
  await expect(active).not.toBeChecked();
  await page.reload();
  await expect(row(page, name).getByRole('switch')).not.toBeChecked();
  await page.getByLabel('Status').selectOption('active');
  await expect(row(page, name)).toHaveCount(0);
  await page.getByLabel('Status').selectOption('inactive');
  await expect(row(page, name)).toBeVisible();
  await expect(page).toHaveURL(/[?&]active=inactive/);

  await row(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete this item?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(row(page, name)).toHaveCount(0);
});

test('a save that meets a newer version shows both and overwrites knowingly', async ({
  browser,
  request,
}) => {
  // Two signed-in browsers, each loading the editor twice: 35 s on a quiet 2-core machine, near a minute
  // while the other worker runs, so it gets the longer budget.
  test.setTimeout(150_000);
  const name = unique('mood');
  await createItem(request, 'moods', { name, content: { tone: 'calm' }, priority: 2 });
  const first = await openAsAdmin(browser, '/admin/config?tab=moods');
  const second = await openAsAdmin(browser, '/admin/config?tab=moods');

  for (const { page } of [first, second]) {
    await row(page, name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    // The editor's chunk (Monaco, about 700 KB compressed) loads on the dialog's first opening: with two
    // browsers doing so while the other worker runs, that can take longer than the usual 10 s.
    await expect(page.getByRole('dialog').locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  }
  const theirs = first.page.getByRole('dialog');
  await theirs.getByLabel('Priority').fill('5');
  await theirs.getByRole('button', { name: 'Save' }).click();
  await expect(theirs).toBeHidden();

  const mine = second.page.getByRole('dialog');
  await mine.getByLabel('Priority').fill('8');
  await setContent(second.page, mine, '{"tone": "bright"}');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(mine.getByText('Someone else changed this item while you were editing')).toBeVisible();
  await expect(mine).toContainText('Theirs: 5');
  await expect(mine).toContainText('Yours: 8');
  await expect(mine.locator('del')).toContainText(['"tone": "calm"']);
  await expect(mine.locator('ins')).toContainText(['"tone": "bright"']);

  await mine.getByRole('button', { name: 'Reload their version' }).click();
  await expect(mine.getByLabel('Priority')).toHaveValue('5');
  await mine.getByLabel('Priority').fill('8');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(mine).toBeHidden();
  await expect(row(second.page, name)).toContainText('{"tone":"calm"}');

  // The first editor is now the stale one: it overwrites, having seen the difference.
  await row(first.page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  await theirs.getByLabel('Priority').fill('3');
  await second.page.reload();
  await row(second.page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  await mine.getByLabel('Priority').fill('9');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(mine).toBeHidden();
  await theirs.getByRole('button', { name: 'Save' }).click();
  await expect(theirs).toContainText('Yours: 3');
  await theirs.getByRole('button', { name: 'Overwrite with mine' }).click();
  await expect(theirs).toBeHidden();
  await expect(priorityOf(first.page, name)).toHaveText('3');

  await first.context.close();
  await second.context.close();
});

test('restores an earlier revision from the history', async ({ page, request }) => {
  const name = unique('task');
  const item = await createItem(request, 'tasks', { name, content: 'Post the morning digest', priority: 2 });
  const response = await request.put(`/api/admin/api/config/tasks/${item.id}`, {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { ...item, content: 'Post the evening digest', priority: 6, version: item.version },
  });
  expect(response.ok()).toBeTruthy();

  await signIn(page);
  await page.goto('/admin/config?tab=tasks');
  await row(page, name)
    .getByRole('button', { name: `History of ${name}` })
    .click();
  const history = page.getByRole('dialog', { name: `History of ${name}` });
  await expect(history.getByRole('list', { name: 'Revisions' }).getByRole('listitem')).toHaveCount(2);
  await expect(
    history.getByRole('heading', { name: 'Revision 1 compared with the current version' }),
  ).toBeVisible();
  await expect(history).toContainText('Revision 1: 2');
  await expect(history).toContainText('Current: 6');
  await expect(history.locator('del')).toContainText(['Post the morning digest']);

  await history.getByRole('button', { name: 'Restore revision 1' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restore revision 1?' });
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(confirm).toBeHidden();
  await expect(history.getByRole('status')).toContainText('Revision 1 was restored as version 3');
  await expect(history.getByRole('button', { name: /Revision 3/ })).toContainText('Restored from revision 1');
  await page.keyboard.press('Escape');
  await expect(row(page, name)).toContainText('Post the morning digest');
});

test('disables selected items at once, exports a section and imports it back all or nothing', async ({
  page,
  request,
}) => {
  const first = unique('Bulk one');
  const second = unique('Bulk two');
  await createItem(request, 'quirks', { name: first, content: 'First quirk' });
  await createItem(request, 'quirks', { name: second, content: 'Second quirk' });
  await signIn(page);
  await page.goto(`/admin/config?tab=quirks&q=${encodeURIComponent('Bulk')}`);

  await row(page, first)
    .getByRole('checkbox', { name: `Select ${first}` })
    .check();
  await row(page, second)
    .getByRole('checkbox', { name: `Select ${second}` })
    .check();
  const toolbar = page.getByRole('toolbar', { name: 'Selected items' });
  await expect(toolbar).toContainText('2 selected');
  await toolbar.getByRole('button', { name: 'Disable selected' }).click();
  await expect(row(page, first).getByRole('switch')).not.toBeChecked();
  await expect(row(page, second).getByRole('switch')).not.toBeChecked();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('lumi-quirks.json');
  const exported = JSON.parse(readFileSync(await file.path(), 'utf8')) as {
    items: { name: string; content: string }[];
  };
  expect(exported.items.find((item) => item.name === first)?.content).toBe('First quirk');

  const input = page.getByLabel('Import Quirks from a JSON file');
  const upload = (items: unknown[]) =>
    input.setInputFiles({
      name: 'quirks.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ items })),
    });
  await upload([
    { name: first, content: 'Changed' },
    { name: '', content: 'x' },
  ]);
  const dialog = page.getByRole('dialog', { name: 'Import Quirks' });
  await expect(dialog).toContainText('2 items: 1 new item and 1 existing item updated');
  await dialog.getByRole('button', { name: 'Import 2 items' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Item 2');
  await expect(dialog.getByRole('alert')).toContainText('Name is required');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, first)).toContainText('First quirk');

  await upload([{ name: first, content: 'Changed by import' }]);
  await dialog.getByRole('button', { name: 'Import 1 item' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, first)).toContainText('Changed by import');
});

test('a viewer sees the list read-only and opens an item in full, with its history', async ({
  page,
  request,
}) => {
  const name = unique('flag');
  await createItem(request, 'feature-flags', { name, content: { enabled: true }, is_active: false });
  const username = unique('viewer');
  const password = 'Viewer-Pass-8812';
  await createUser(request, await adminToken(request), { username, password, roleName: 'viewer' });
  await signIn(page, username, password);
  await page.goto('/admin/config?tab=feature-flags');

  await expect(row(page, name)).toContainText('Inactive');
  await expect(page.getByRole('switch')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Item' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  // The one control a reader has: opening the item to read it.
  await expect(row(page, name).getByRole('button')).toHaveCount(1);
  await row(page, name)
    .getByRole('button', { name: `View ${name}` })
    .click();
  const view = page.getByRole('dialog', { name });
  await expect(view.getByText('Read only', { exact: false }).first()).toBeVisible();
  await expect(view.getByRole('button', { name: /^Save/ })).toHaveCount(0);
  await view.getByRole('tab', { name: 'History' }).click();
  await expect(view.getByRole('tabpanel')).toContainText('Revision 1');
  await expect(view.getByRole('button', { name: /^Restore/ })).toHaveCount(0);
});

test('a role with neither config permission is denied the screen', async ({ page, request }) => {
  const token = await adminToken(request);
  const roleName = unique('metrics');
  const role = await request.post('/api/roles', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: roleName, description: 'Metrics only', permissions: ['metrics:read'] },
  });
  expect(role.status()).toBe(201);
  const username = unique('watcher');
  const password = 'Watcher-Pass-5521';
  await createUser(request, token, { username, password, roleName });
  await signIn(page, username, password);
  await page.goto('/admin/config');

  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(
    page.getByText(
      "You don't have permission to access the configuration panel. Please contact an administrator.",
    ),
  ).toBeVisible();
});
