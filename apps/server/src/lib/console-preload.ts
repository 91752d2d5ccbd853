/** One chunk of Vite's build manifest (apps/web/dist/.vite/manifest.json), as far as preloading needs it. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export type ViteManifest = Record<string, ManifestChunk>;

/**
 * The console's screens are lazy chunks (apps/web/src/app/router.tsx): `/admin/<screen>` renders
 * src/app/routes/<screen>-route.tsx inside the signed-in layout, and /admin/ goes on to the overview.
 */
const LAYOUT_MODULE = 'src/app/layout/app-layout.tsx';
const SCREEN_MODULES: Readonly<Record<string, readonly string[]>> = {
  login: ['src/features/auth/login-page.tsx'],
  '': [LAYOUT_MODULE, 'src/app/routes/overview-route.tsx'],
};

function modulesOf(screen: string): readonly string[] {
  // Own keys only: the screen comes from the URL, and '/admin/constructor' must not find Object's.
  return Object.hasOwn(SCREEN_MODULES, screen)
    ? SCREEN_MODULES[screen]!
    : [LAYOUT_MODULE, `src/app/routes/${screen}-route.tsx`];
}

/** The chunk's files and those of its static imports, recursively (what must load before it runs). */
function collect(manifest: ViteManifest, key: string, into: Set<string>, seen = new Set<string>()): void {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, into, seen);
}

/** The app's entry as Vite writes it in index.html. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

/** Every `<link rel="modulepreload">` of a page, Vite's and the screen's. */
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="[^"]+">/g;

/**
 * The page with a screen's first view in its root. Its scripts are not needed for the first paint, so none
 * is asked for before it: the entry and the chunks' `<link rel="modulepreload">` wait in a `<template
 * data-first-view-modules>` (inert: nothing in it loads) with the entry named (`data-first-view-entry`), and
 * first-load.js puts them in the page and runs the entry once the view is painted. A phone on a slow link
 * then spends its first bytes on the view, not on the app's code, and a simulated load (Lighthouse's, which
 * counts every download and script run before the largest paint as holding it) measures the view's own
 * paint (docs/benchmarks.md, "The first signed-in load").
 */
function withFirstView(page: string, view: string): string {
  const entry = ENTRY_SCRIPT.exec(page)?.[1];
  if (entry === undefined) return page;
  const modules = page.match(MODULE_PRELOAD) ?? [];
  const waiting =
    `<template data-first-view-modules><link rel="modulepreload" crossorigin href="${entry}" data-first-view-entry>` +
    `${modules.join('')}</template>`;
  return page
    .replace('<div id="root"></div>', `<div id="root"><div data-first-view inert>${view}</div></div>`)
    .replace(ENTRY_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace('</head>', `${waiting}</head>`);
}

/**
 * The first view of each signed-in screen, by its address under /admin with the query, where `?name=*` is
 * the view for any value of that one parameter (apps/web/src/prerender.tsx, FIRST_VIEW_ADDRESSES).
 */
export type FirstViews = Readonly<Record<string, string>>;

/** A query of one parameter (`?rule=12`): its name. */
const ONE_PARAMETER = /^\?([A-Za-z_]+)=[^&]*$/;

/** The address the build rendered the view for: this one, or its `?name=*`; undefined when none. */
function viewAddress(firstViews: FirstViews, path: string, query: string): string | undefined {
  const address = `/${path}${query}`;
  if (Object.hasOwn(firstViews, address)) return address;
  const name = ONE_PARAMETER.exec(query)?.[1];
  const anyValue = name && `/${path}?${name}=*`;
  return anyValue && Object.hasOwn(firstViews, anyValue) ? anyValue : undefined;
}

/**
 * index.html for each address, with `<link rel="modulepreload">` for the chunks its screen needs beyond the
 * entry's own (Vite already lists those). Without it the browser learns of a screen's chunks only after
 * the entry script has run, one round trip after another; with it they download beside the entry.
 * When the build rendered the screen's first view for that address, query included (a query can change
 * what the screen shows first), or for any value of its query's one parameter, the page carries it too, so
 * a phone paints the screen's frame before the script arrives; it is `inert` (a picture until the app's
 * first render replaces it), and first-load.js hides it from a visitor without a remembered session, who is
 * sent to sign in.
 * Returns a function from the path under /admin (`users`, `metrics/calls/7`) and the address's query (`''`
 * or `?tab=calls`) to the page; an unknown screen gets the page as built.
 */
export function preloadingIndex(
  html: string,
  manifest: ViteManifest,
  firstViews: FirstViews = {},
): (path: string, query: string) => string {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const initial = new Set<string>();
  if (entryKey) collect(manifest, entryKey, initial);
  const pages = new Map<string, string>();

  const preloading = (screen: string): string => {
    const modules = modulesOf(screen);
    if (!entryKey || !modules.every((key) => key in manifest)) return html;
    const files = new Set<string>();
    for (const key of modules) collect(manifest, key, files);
    const links = [...files]
      .filter((file) => !initial.has(file))
      .map((file) =>
        file.endsWith('.css')
          ? `<link rel="stylesheet" crossorigin href="/admin/${file}">`
          : `<link rel="modulepreload" crossorigin href="/admin/${file}">`,
      );
    return html.replace('</head>', `${links.join('')}</head>`);
  };

  return (path, query) => {
    const address = viewAddress(firstViews, path, query);
    const view = address === undefined ? undefined : firstViews[address];
    const screen = path.split('/')[0] ?? '';
    const key = address ?? screen;
    const cached = pages.get(key);
    if (cached !== undefined) return cached;
    const preloaded = preloading(screen);
    const page = view === undefined ? preloaded : withFirstView(preloaded, view);
    // Only screens the build knows are kept, so the cache cannot grow with arbitrary paths.
    if (page !== html) pages.set(key, page);
    return page;
  };
}
