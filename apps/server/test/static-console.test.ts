import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('serves a rebuilt index.html without a restart', async () => {
    const rebuilt = INDEX_HTML.replace('Lumi Admin', 'Lumi Admin rebuilt');
    writeFileSync(path.join(root, 'index.html'), rebuilt);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'index.html'), later, later);
    const res = await t.app.inject({ method: 'GET', url: '/admin/users' });
    expect(res.body).toBe(rebuilt);
    writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
  });

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

  it('serves an asset a rebuild wrote after start-up, as the others', async () => {
    const asset = 'assets/index-9d8c7b6a.js';
    writeFileSync(path.join(root, asset), ASSET_SOURCE);
    writeFileSync(path.join(root, `${asset}.br`), brotliCompressSync(ASSET_SOURCE));
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/${asset}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(ASSET_SOURCE);
  });

  it('serves a file a rebuild added beside index.html after start-up', async () => {
    writeFileSync(path.join(root, 'first-load.js'), 'void 0;');
    const res = await t.app.inject({ method: 'GET', url: '/admin/first-load.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('void 0;');
  });

  it.each([
    '/admin/assets/..%2findex.html',
    '/admin/assets/..%2f..%2fpackage.json',
    '/admin/assets/',
    '/admin/assets/a%00b.js',
  ])('answers %s with 404, never a file outside assets/', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/assets/index-00000000.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });
});

describe("the console's screens with the build's manifest", () => {
  const root = fakeConsoleBuild();
  const manifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react.js'] },
    '_react.js': { file: 'assets/react-1.js' },
    '_table.js': { file: 'assets/table-1.js', imports: ['_react.js'] },
    'src/app/layout/app-layout.tsx': { file: 'assets/app-layout-1.js', imports: ['index.html'] },
    'src/app/routes/users-route.tsx': {
      file: 'assets/users-route-1.js',
      imports: ['_table.js', 'index.html'],
      css: ['assets/users-route-1.css'],
    },
    'src/app/routes/overview-route.tsx': { file: 'assets/overview-route-1.js' },
    'src/features/auth/login-page.tsx': { file: 'assets/login-page-1.js', imports: ['index.html'] },
  };
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(manifest));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp('sqlite', { consoleRoot: root });
  const preloaded = (body: string) =>
    [...body.matchAll(/<link rel="(modulepreload|stylesheet)" crossorigin href="\/admin\/([^"]+)">/g)].map(
      (m) => m[2],
    );

  it('preloads the layout and the screen a signed-in path names, beyond what the entry loads', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/users?role=admin' });
    expect(res.statusCode).toBe(200);
    expect(preloaded(res.body)).toEqual([
      'assets/app-layout-1.js',
      'assets/users-route-1.js',
      'assets/users-route-1.css',
      'assets/table-1.js',
    ]);
    expect(res.body.indexOf('modulepreload')).toBeLessThan(res.body.indexOf('</head>'));
  });

  it.each([
    ['/admin/', ['assets/app-layout-1.js', 'assets/overview-route-1.js']],
    ['/admin/login', ['assets/login-page-1.js']],
    ['/admin/no-such-screen', []],
    // Names an object inherits are not screens.
    ['/admin/constructor', []],
    ['/admin/__proto__', []],
    ['/admin/toString', []],
  ])('preloads for %s what that page shows', async (url, files) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(preloaded(res.body)).toEqual(files);
  });

  it('answers 503, not 500, while a build has removed index.html', async () => {
    rmSync(path.join(root, 'index.html'));
    const res = await t.app.inject({ method: 'GET', url: '/admin/users' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});

describe("a signed-in screen's first view in its page", () => {
  const root = fakeConsoleBuild();
  const page =
    '<html><head><script type="module" crossorigin src="/admin/assets/index-1.js"></script>' +
    '<link rel="modulepreload" crossorigin href="/admin/assets/react-1.js"></head>' +
    '<body><div id="root"></div></body></html>';
  writeFileSync(path.join(root, 'index.html'), page);
  mkdirSync(path.join(root, '.vite'));
  const views = path.join(root, '.vite', 'first-views.json');
  writeFileSync(
    views,
    JSON.stringify({
      '/users': '<h1>Users</h1>',
      '/users?tab=roles': '<h1>Roles</h1>',
      '/users?user=*': '<h1>A user</h1>',
    }),
  );
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp('sqlite', { consoleRoot: root });

  it('puts the view in the root, inert, and keeps the entry and its chunks in a template for later', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/users' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"><div data-first-view inert><h1>Users</h1></div></div>');
    // first-load.js puts them in the page, and runs the entry, once the view is painted.
    expect(res.body).not.toContain('<script type="module"');
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head.replace(/<template[\s\S]*<\/template>/, '')).not.toContain('modulepreload');
    expect(head).toContain(
      '<template data-first-view-modules>' +
        '<link rel="modulepreload" crossorigin href="/admin/assets/index-1.js" data-first-view-entry>' +
        '<link rel="modulepreload" crossorigin href="/admin/assets/react-1.js"></template>',
    );
  });

  it.each([
    '/admin/users?role=admin',
    '/admin/users/42',
    '/admin/users/',
    '/admin/login',
    '/admin/',
    '/admin/__proto__',
    '/admin/users?tab=roles&x=1',
    '/admin/users?user=42&tab=roles',
    '/admin/users?tab=admins',
  ])('sends %s without it: only an address the build rendered, query included, has a view', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('<template');
    expect(res.body).toContain('<script type="module" crossorigin src="/admin/assets/index-1.js"></script>');
  });

  it('sends the view of an address with its query', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/users?tab=roles' });
    expect(res.body).toContain('<div id="root"><div data-first-view inert><h1>Roles</h1></div></div>');
  });

  it.each(['/admin/users?user=42', '/admin/users?user=7', '/admin/users?user='])(
    'sends %s the view rendered for any value of its one parameter',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body).toContain('<div id="root"><div data-first-view inert><h1>A user</h1></div></div>');
    },
  );

  it.each([
    ['br, gzip, deflate', 'br', brotliDecompressSync],
    ['gzip, br;q=0', 'gzip', gunzipSync],
    ['identity', undefined, (body: Buffer) => body],
  ] as const)(
    'compresses the page as the browser accepts (Accept-Encoding: %s)',
    async (accepted, encoding, decode) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/admin/users',
        headers: { 'accept-encoding': accepted },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(res.rawPayload).toString()).toContain('<div data-first-view inert><h1>Users</h1></div>');
    },
  );

  it('sends the pages without views, not a 500, when the views file is unreadable', async () => {
    writeFileSync(views, '{"/users": ');
    writeFileSync(path.join(root, 'index.html'), page.replace('<html>', '<html lang="en">'));
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'index.html'), later, later);
    const res = await t.app.inject({ method: 'GET', url: '/admin/users' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('<div id="root"></div>');
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
