import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { preloadingIndex, type FirstViews, type ViteManifest } from '../lib/console-preload.js';

/**
 * Serves the built console under /admin. Hashed assets are immutable for a year and go out in the
 * compressed form the build made (brotli or gzip, as the browser accepts); index.html is never cached, and
 * every other /admin path answers with it so deep links work in the single-page app, with the chunks of the
 * screen it names preloaded (lib/console-preload.ts).
 */
export const staticConsolePlugin = fp(async (app: FastifyInstance, opts: { root: string | null }) => {
  const root = opts.root && existsSync(path.join(opts.root, 'index.html')) ? opts.root : null;

  app.get('/', { config: { permission: 'public' } }, (_request, reply) => reply.redirect('/admin/'));

  const notBuilt = (reply: FastifyReply) =>
    reply
      .status(503)
      .type('text/plain; charset=utf-8')
      .send('The console is not built. Run `npm run build` (npm start does this for you), then reload.');

  if (!root) {
    app.get('/admin/*', { config: { permission: 'public' } }, (_request, reply) => notBuilt(reply));
    return;
  }

  await app.register(fastifyStatic, {
    root,
    prefix: '/admin/',
    index: false,
    wildcard: false,
    // The console build writes .br and .gz beside each asset (apps/web/vite-precompress.ts).
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  const indexFile = path.join(root, 'index.html');
  const manifestFile = path.join(root, '.vite', 'manifest.json');
  const firstViewsFile = path.join(root, '.vite', 'first-views.json');
  let built = {
    at: -1,
    pageFor: (_path: string, _query: string) => '',
    // Each page compressed once per build: a screen's first view makes its page some 10 to 27 KB.
    encoded: new Map<string, { br?: Buffer; gzip?: Buffer }>(),
  };
  // Read again when the console is rebuilt under a running server, as a file sent from disk would be.
  const pageFor = (wildcard: string, query: string): string | null => {
    // A build in progress has removed the page for a moment.
    const at = statSync(indexFile, { throwIfNoEntry: false })?.mtimeMs;
    if (at === undefined) return null;
    if (at !== built.at) {
      const html = readFileSync(indexFile, 'utf8');
      let manifest: ViteManifest;
      try {
        manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as ViteManifest;
      } catch {
        // No manifest (or one half written): the page as built, without preloads, until the page changes.
        manifest = {};
      }
      const pageFor = preloadingIndex(html, manifest, readFirstViews(firstViewsFile));
      built = { at, pageFor, encoded: new Map() };
    }
    return built.pageFor(wildcard, query);
  };

  const sendIndex = (wildcard: string, query: string, request: FastifyRequest, reply: FastifyReply) => {
    const page = pageFor(wildcard, query);
    if (page === null) return notBuilt(reply);
    void reply
      .header('cache-control', 'no-cache, no-store, must-revalidate')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(page);
    let encoded = built.encoded.get(page);
    if (!encoded) {
      encoded = {};
      // Only pages the build knows are kept (lib/console-preload.ts), so this cannot grow with arbitrary paths.
      built.encoded.set(page, encoded);
    }
    const body = (encoded[encoding] ??= encoding === 'br' ? brotliCompressSync(page) : gzipSync(page));
    return reply.header('content-encoding', encoding).send(body);
  };

  app.get('/admin', { config: { permission: 'public' } }, (_request, reply) => reply.redirect('/admin/'));
  app.get('/admin/', { config: { permission: 'public' } }, (request, reply) =>
    sendIndex('', '', request, reply),
  );
  app.get('/admin/*', { config: { permission: 'public' } }, async (request, reply) => {
    const wildcard = (request.params as { '*': string })['*'];
    // @fastify/static serves the files it listed at start-up; these are ones a build wrote since (the console
    // rebuilt under a running server, as index.html above). Missing files under assets/ are real 404s, not
    // the app shell (a stale tab asking for an old chunk).
    const file = builtFile(root, wildcard);
    if (file) return reply.sendFile(file);
    if (wildcard.startsWith('assets/')) return reply.callNotFound();
    const at = request.url.indexOf('?');
    return sendIndex(wildcard, at === -1 ? '' : request.url.slice(at), request, reply);
  });
});

/** Brotli, else gzip, if the browser accepts it (RFC 9110, 12.5.3: `q=0` refuses a coding). */
function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([coding]) => coding),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** The build's first views (apps/web/vite-prerender.ts); none when it wrote none or half of them. */
function readFirstViews(file: string): FirstViews {
  try {
    const views: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (
      typeof views === 'object' &&
      views !== null &&
      Object.values(views).every((v) => typeof v === 'string')
    ) {
      return views as FirstViews;
    }
  } catch {
    // No file, or one half written: the pages without first views until index.html changes.
  }
  return {};
}

/**
 * `wildcard` as a file of the build under `root` to send, if it is one: not index.html (sent with its
 * preloads), nothing hidden (.vite/) and nothing outside the root.
 */
function builtFile(root: string, wildcard: string): string | null {
  const file = path.posix.normalize(wildcard);
  if (file === 'index.html' || file.includes('\0') || file.split('/').some((part) => part.startsWith('.'))) {
    return null;
  }
  return statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile() ? file : null;
}
