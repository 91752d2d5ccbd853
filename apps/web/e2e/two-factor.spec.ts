import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { adminToken, createUser, unique } from './support/fixtures';

/** The code an authenticator app shows for `secret` at `at` (RFC 6238, as the server checks it). */
function totp(secret: string, at = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });
}

async function signInWithPassword(page: Page, username: string, password: string) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page
    .getByRole('button', { name: /user menu/i })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Checks the page in both themes, as the accessibility sweep does for every screen. */
async function expectAccessible(page: Page, what: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const html = page.locator('html');
    await (theme === 'dark' ? expect(html).toHaveClass(/dark/) : expect(html).not.toHaveClass(/dark/));
    expect(await seriousViolations(page), `${what} (${theme})`).toEqual([]);
  }
}

/** Starts the setup from wherever it is offered and returns the secret as the page shows it. */
async function readSecret(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const shown = await page.getByTestId('two-factor-secret').innerText();
  return shown.replace(/\s/g, '');
}

/** Confirms the setup with the current code and acknowledges the recovery codes; returns them. */
async function finishSetup(page: Page, secret: string): Promise<string[]> {
  await page.getByLabel('Authentication code').fill(totp(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allInnerTexts();
  const done = page.getByRole('button', { name: 'Done' });
  await expect(done).toBeDisabled();
  await page.getByRole('checkbox', { name: 'I have saved my recovery codes' }).click();
  await done.click();
  return codes;
}

async function newUser(request: APIRequestContext, prefix: string, roleName = 'viewer') {
  const username = unique(prefix);
  const password = 'Second-Factor-4417';
  const token = await adminToken(request);
  const user = await createUser(request, token, { username, password, roleName });
  return { ...user, username, password, token };
}

test('enrols from Profile, then signs in with a code and with a recovery code, each once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { username, password } = await newUser(request, 'totp');
  // The QR code is drawn in the browser: no request leaves this server.
  const hosts = new Set<string>();
  page.on('request', (r) => hosts.add(new URL(r.url()).host));

  await signInWithPassword(page, username, password);
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await page.goto('/admin/profile');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Set up', exact: true }).click();
  const secret = await readSecret(page);
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  const src = await page.getByRole('img', { name: /QR code/ }).getAttribute('src');
  expect(src).toMatch(/^data:image\/svg\+xml/);
  await expectAccessible(page, 'two-factor setup');
  const codes = await finishSetup(page, secret);
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  expect([...hosts].every((host) => host.startsWith('127.0.0.1'))).toBe(true);

  // A code: the next time step, since the step the setup used is never accepted again.
  await signOut(page);
  await signInWithPassword(page, username, password);
  const code = page.getByLabel('Authentication code');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expectAccessible(page, 'sign-in second step');
  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Verification failed');
  await code.fill(totp(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);

  // A recovery code, once.
  await signOut(page);
  await signInWithPassword(page, username, password);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await page.goto('/admin/profile');
  await expect(page.getByText(/9 recovery codes left/)).toBeVisible();

  await signOut(page);
  await signInWithPassword(page, username, password);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Verification failed');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('signs out another session from Profile; that browser is sent to sign in', async ({
  browser,
  request,
}) => {
  const { username, password } = await newUser(request, 'sess');
  const here = await browser.newContext();
  const there = await browser.newContext();
  try {
    const mine = await here.newPage();
    const other = await there.newPage();
    await signInWithPassword(other, username, password);
    await expect(other).toHaveURL(/\/admin\/overview$/);
    await signInWithPassword(mine, username, password);
    await expect(mine).toHaveURL(/\/admin\/overview$/);

    await mine.goto('/admin/profile');
    const list = mine.getByRole('list', { name: 'Your sessions' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByText('This device')).toHaveCount(1);
    await list.getByRole('button', { name: /^Sign out / }).click();
    const confirm = mine.getByRole('alertdialog', { name: 'Sign out this session?' });
    await confirm.getByRole('button', { name: 'Sign out' }).click();
    await expect(confirm).toBeHidden();
    await expect(list.getByRole('listitem')).toHaveCount(1);

    // The console there may be sending it to sign in already (its session ended): that interrupts this.
    await other.goto('/admin/users').catch((error: Error) => {
      if (!/interrupted by another navigation to "[^"]*\/admin\/login/.test(error.message)) throw error;
    });
    await expect(other).toHaveURL(/\/admin\/login/);
    // This device stays signed in.
    await mine.reload();
    await expect(mine.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
  } finally {
    await here.close();
    await there.close();
  }
});

test('a role that requires two-factor sends its users to set it up before anything else', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const token = await adminToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const roleName = unique('mfa').toLowerCase();
  const role = await request.post('/api/roles', {
    headers,
    data: {
      name: roleName,
      description: 'Two-factor required',
      permissions: ['metrics:read'],
      require_two_factor: true,
    },
  });
  expect(role.status(), await role.text()).toBe(201);
  const { username, password } = await newUser(request, 'enforced', roleName);

  await signInWithPassword(page, username, password);
  await expect(page).toHaveURL(/\/admin\/account-setup$/);
  await expect(page.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible();
  await expectAccessible(page, 'account setup');
  await page.goto('/admin/overview');
  await expect(page).toHaveURL(/\/admin\/account-setup$/);

  const secret = await readSecret(page);
  await finishSetup(page, secret);
  await expect(page).toHaveURL(/\/admin\/overview$/);
});

test('a temporary password set by an admin must be changed at the next sign-in', async ({
  page,
  request,
}) => {
  const { id, username, token } = await newUser(request, 'temp');
  const temporary = 'Temporary-Pass-6620';
  const reset = await request.post(`/api/users/${id}/password-reset`, {
    headers: { authorization: `Bearer ${token}` },
    data: { temporary_password: temporary },
  });
  expect(reset.ok(), await reset.text()).toBeTruthy();

  await signInWithPassword(page, username, temporary);
  await expect(page).toHaveURL(/\/admin\/account-setup$/);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/admin\/account-setup$/);
  await page.getByLabel('Temporary password').fill(temporary);
  await page.getByLabel('New password', { exact: true }).fill('Own-Password-7734');
  await page.getByLabel('Confirm new password').fill('Own-Password-7734');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);
});
