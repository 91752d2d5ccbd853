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

/**
 * index.html for each screen, with `<link rel="modulepreload">` for the chunks that screen needs beyond the
 * entry's own (Vite already lists those). Without it the browser learns of a screen's chunks only after
 * the entry script has run, one round trip after another; with it they download beside the entry.
 * Returns a function from the first path segment under /admin to the page; an unknown screen gets the
 * page as built.
 */
export function preloadingIndex(html: string, manifest: ViteManifest): (screen: string) => string {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const initial = new Set<string>();
  if (entryKey) collect(manifest, entryKey, initial);
  const pages = new Map<string, string>();

  return (screen) => {
    const cached = pages.get(screen);
    if (cached !== undefined) return cached;
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
    const page = html.replace('</head>', `${links.join('')}</head>`);
    // Only screens the build knows are kept, so the cache cannot grow with arbitrary paths.
    pages.set(screen, page);
    return page;
  };
}
