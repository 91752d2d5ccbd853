import { expect, test } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';

test('the theme menu switches between light, dark and the system setting', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page);
  const html = page.locator('html');

  await page.getByRole('button', { name: /theme/i }).click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.getByRole('button', { name: /theme/i }).click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(html).not.toHaveClass(/dark/);

  await page.getByRole('button', { name: /theme/i }).click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(html).not.toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
});

test('a theme change switches the colours at once, without transitions', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page);
  const html = page.locator('html');
  // The console has colour transitions (buttons and links fade on hover): a theme change must not run them.
  // The console renders after sign-in's redirect ("Loading..." first): count once the Overview is there.
  await expect(page.getByRole('heading', { name: 'System Overview' })).toBeVisible();
  const fading = await page.evaluate(() => document.querySelectorAll('.transition-colors').length);
  expect(fading).toBeGreaterThan(0);
  // Counts the transitions running two frames after the class changes, when a fade would be under way.
  const running = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new MutationObserver(() => {
          const frame = () => new Promise((next) => requestAnimationFrame(next));
          void frame()
            .then(frame)
            .then(() => resolve(document.getAnimations().filter((a) => a instanceof CSSTransition).length));
        }).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
      }),
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
  expect(await running).toBe(0);
});

test('a theme change reaches the cards below a phone screen without transitions', async ({
  page,
  request,
}) => {
  // A phone's table cards off the screen skip their style until they come near (components/ui/
  // responsive-table.tsx, content-visibility): once there, they must show the new theme at once, not fade
  // to it from the old one.
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  for (let i = 0; i < 12; i += 1) {
    const response = await request.post('/api/admin/api-keys', {
      headers,
      data: { name: unique('theme-card'), scopes: ['ingest:write'] },
    });
    expect(response.ok()).toBeTruthy();
  }
  await page.setViewportSize({ width: 375, height: 812 });
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page);
  await page.goto('/admin/admin?tab=api-keys');
  const cards = page.getByRole('table', { name: 'API keys' }).getByRole('row');
  await expect(cards).not.toHaveCount(0);
  const last = cards.last();
  // What a card holds is skipped, not the card itself.
  const skipped = () =>
    last.evaluate((card) => !card.firstElementChild!.checkVisibility({ contentVisibilityAuto: true }));
  expect(await skipped()).toBe(true);
  // The operator has looked at the last card once: it has its light colours, and skips its style again.
  await last.scrollIntoViewIfNeeded();
  await expect.poll(skipped).toBe(false);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(skipped).toBe(true);

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);
  // Two frames on, the theme change is over; then the card comes into view.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  // Each frame while the card comes into view: the transitions running in it.
  const fading = await last.evaluate(
    (card) =>
      new Promise<number[]>((done) => {
        const frames: number[] = [];
        const frame = () => {
          frames.push(
            card.getAnimations({ subtree: true }).filter((animation) => animation instanceof CSSTransition)
              .length,
          );
          if (frames.length < 10) requestAnimationFrame(frame);
          else done(frames);
        };
        requestAnimationFrame(frame);
        card.scrollIntoView();
      }),
  );
  expect(await skipped()).toBe(false);
  expect(fading).toEqual(Array(10).fill(0));
});
