import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helper.js';

const INDEX_HTML =
  '<!doctype html><html><head><title>Lumi Admin</title></head><body><div id="root"></div></body></html>';
const ASSET = 'assets/index-3f2a1b9c.js';
const ASSET_SOURCE = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** A stand-in for apps/web/dist: index.html, a hashed asset and a file outside assets/. */
function fakeConsoleBuild(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'lumi-console-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(root, ASSET), ASSET_SOURCE);
  // As the console build does (apps/web/vite-precompress.ts).
  writeFileSync(path.join(root, `${ASSET}.br`), brotliCompressSync(ASSET_SOURCE));
  writeFileSync(path.join(root, `${ASSET}.gz`), gzipSync(ASSET_SOURCE));
  writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

// Serving the console involves no database, so these run on SQLite only.
describe('the built console under /admin', () => {
  const root = fakeConsoleBuild();
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp('sqlite', { consoleRoot: root });

  it.each(['/admin/', '/admin/users', '/admin/profile', '/admin/users/42/edit'])(
    'answers %s with index.html, never cached',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(INDEX_HTML);
      expect(res.headers['cache-control']).toMatch(/no-store|no-cache/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    },
  );

  it('redirects /admin to /admin/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/admin/');
  });

  it.each([
    ['br, gzip, deflate', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    [undefined, undefined, (body: Buffer) => body],
  ] as const)(
    "caches hashed assets for a year and sends the build's compressed copy (Accept-Encoding: %s)",
    async (accepted, encoding, decode) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/admin/${ASSET}`,
        headers: accepted ? { 'accept-encoding': accepted } : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.rawPayload).toString()).toBe(ASSET_SOURCE);
    },
  );

  it('does not cache files outside assets/ for long', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).not.toContain('immutable');
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/assets/index-00000000.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });
});

describe('without a built console', () => {
  const t = useTestApp('sqlite');

  it('explains how to build it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/users' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});
