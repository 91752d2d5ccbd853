import path from 'node:path';

/** What Rolldown's chunking tells about a module (its `ChunkingContext`), as far as grouping needs it. */
interface ModuleGraph {
  getModuleInfo(id: string): {
    code: string | null;
    importedIds: readonly string[];
    dynamicallyImportedIds: readonly string[];
    exports: readonly string[];
  } | null;
}

const SRC = path.resolve(import.meta.dirname, 'src');
const ENTRY = path.join(SRC, 'main.tsx');
/** The module whose dynamic imports are the screens (`lazyScreen(() => import(…))`). */
const ROUTE_TABLE = path.join(SRC, 'app/route-table.tsx');
const LOGIN_PAGE = path.join(SRC, 'features/auth/login-page.tsx');
const LAYOUT = path.join(SRC, 'app/layout/app-layout.tsx');
const TOASTER = path.join(SRC, 'app/toaster.tsx');
/** A module the screens load beside their own code once this many of them use it. */
const SHARED_BY = 4;

/** Every name of a module: an import of the whole module, or one whose names could not be read. */
const ALL = '*';
/** One static `import … from` or `export … from` (or bare `import '…'`): its clause and its specifier. */
const STATEMENT = /(?:^|[;\n])\s*(?:(import|export)\s*([^;()'"=]*?)\s*from\s*|import\s*)["']([^"']+)["']/g;
/** `export { a, b as c }` without `from`: what a module exports of the names it imported. */
const EXPORT_LIST = /(?:^|[;\n])\s*export\s*\{([^}]*)\}\s*;?/g;
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** An import of one module: the names taken, as `imported>local` (or `imported>exported` for a re-export). */
interface Edge {
  id: string;
  pairs: string[];
  reexport: boolean;
}

/** `{ a, b as c }`, `d`, `* as e`, `*`: the clause's names as `imported>local` pairs. */
function pairsOf(clause: string): string[] {
  const text = clause.replace(/\btype\b/g, '').trim();
  if (text === '' || text === ALL) return [`${ALL}>${ALL}`];
  const pairs: string[] = [];
  const braces = /\{([^}]*)\}/.exec(text);
  for (const part of text.replace(/\{[^}]*\}/, '').split(',')) {
    const name = part.trim();
    const star = /^\*\s*as\s+(\S+)$/.exec(name);
    if (star) pairs.push(`${ALL}>${star[1]}`);
    else if (name) pairs.push(`default>${name}`);
  }
  for (const part of braces?.[1]?.split(',') ?? []) {
    const [imported, local = imported] = part.trim().split(/\s+as\s+/);
    if (imported) pairs.push(`${imported}>${local}`);
  }
  return pairs;
}

/**
 * The module's static imports with the names it takes from each, read from its code; a module that only
 * passes on what it imports (`import * as A from 'a'; export { A }`, radix-ui's index) counts as
 * re-exporting it. Null when the statements do not line up with Rolldown's list of imports (then every
 * import counts in full).
 */
function edgesOf(code: string, importedIds: readonly string[]): Edge[] | null {
  const text = code.replace(COMMENTS, '');
  const bySpecifier = new Map<string, Edge[]>();
  for (const [, keyword = 'import', clause = '', specifier = ''] of text.matchAll(STATEMENT)) {
    const edges = bySpecifier.get(specifier) ?? [];
    edges.push({ id: '', pairs: pairsOf(clause), reexport: keyword === 'export' });
    bySpecifier.set(specifier, edges);
  }
  // Modules a plugin adds (Vite's preload helper, '\0'-prefixed) appear in the list, not in the code.
  const listed = importedIds.filter((id) => !id.startsWith('\0'));
  if (bySpecifier.size !== listed.length) return null;
  const edges = [...bySpecifier.values()].flatMap((list, i) =>
    list.map((edge) => ({ ...edge, id: listed[i]! })),
  );

  const exported = new Map<string, string[]>();
  for (const [, list = ''] of text.matchAll(EXPORT_LIST)) {
    for (const part of list.split(',')) {
      const [local, as = local] = part.trim().split(/\s+as\s+/);
      if (local && as) exported.set(local, [...(exported.get(local) ?? []), as]);
    }
  }
  const passesOnOnly = text.replace(STATEMENT, '').replace(EXPORT_LIST, '').trim() === '';
  const added = importedIds
    .filter((id) => id.startsWith('\0'))
    .map((id) => ({ id, pairs: [`${ALL}>${ALL}`], reexport: false }));
  if (!passesOnOnly) return [...added, ...edges];
  const passed = edges.map((edge) =>
    edge.reexport
      ? edge
      : {
          id: edge.id,
          reexport: true,
          pairs: edge.pairs.flatMap((pair) => {
            const [imported, local = ''] = pair.split('>');
            return (exported.get(local) ?? []).map((as) => `${imported}>${as}`);
          }),
        },
  );
  return [...added, ...passed];
}

/**
 * The modules `roots` need, themselves included, following the names each import takes: through a module
 * that only re-exports (a package's index, @lumi/contract's) only to the modules that define those names,
 * as tree-shaking does, not to all the package's modules.
 */
function needed(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Map<string, Set<string>>();
  const visit = (id: string, names: readonly string[]) => {
    const known = seen.get(id);
    if (known && (known.has(ALL) || names.every((name) => known.has(name)))) return;
    const wanted = new Set([...(known ?? []), ...names]);
    seen.set(id, wanted);
    const info = graph.getModuleInfo(id);
    if (!info) return;
    const edges = info.code === null ? null : edgesOf(info.code, info.importedIds);
    if (!edges) {
      for (const imported of info.importedIds) visit(imported, [ALL]);
      return;
    }
    for (const edge of edges) {
      if (!edge.reexport) {
        visit(
          edge.id,
          edge.pairs.map((pair) => pair.split('>')[0]!),
        );
        continue;
      }
      // A re-export is followed for the names asked of this module that it provides.
      const passed: string[] = [];
      for (const pair of edge.pairs) {
        const [imported = ALL, as = ALL] = pair.split('>');
        if (as !== ALL) {
          if (wanted.has(ALL) || wanted.has(as)) passed.push(imported);
        } else if (wanted.has(ALL)) passed.push(ALL);
        else passed.push(...(graph.getModuleInfo(edge.id)?.exports ?? []).filter((name) => wanted.has(name)));
      }
      if (passed.length > 0) visit(edge.id, passed);
    }
  };
  for (const root of roots) visit(root, [ALL]);
  return new Set(seen.keys());
}

type Group = 'sign-in' | 'console' | 'screens';
/** Kept out of every group while grouping. */
type Placed = Group | 'later';

/**
 * The console's chunks by what a first load needs, so a phone on a slow connection asks for a few files
 * instead of forty (docs/benchmarks.md, "The first signed-in load"); left to itself, Rolldown makes a chunk
 * of every set of screens that share modules, many of them a few hundred bytes.
 *
 * - `sign-in`: everything the sign-in page runs (the entry's modules and the sign-in form's), which every
 *   page needs first; its size is the sign-in page's budget (scripts/size.mjs).
 * - `console`: the signed-in layout (top bar, menus) beyond that, which every signed-in screen needs.
 * - `screens`: the modules at least SHARED_BY screens use beyond those two.
 *
 * A screen's own modules stay in its chunk, and so do what the sign-in page loads later and the toasts.
 * Each group holds every module its members import, except those of a group loaded before it, so no chunk
 * imports one that imports it back and modules run in the order the source imports them.
 */
export function consoleChunks(): (id: string, graph: ModuleGraph) => Group | null {
  let groups: Map<string, Group> | undefined;
  return (id, graph) => {
    groups ??= groupModules(graph);
    return groups.get(id) ?? null;
  };
}

function groupModules(graph: ModuleGraph): Map<string, Group> {
  const groups = new Map<string, Placed>();
  const signIn = needed(graph, [ENTRY, LOGIN_PAGE]);
  signIn.delete(LOGIN_PAGE);
  for (const id of signIn) groups.set(id, 'sign-in');
  // What the sign-in page loads later (its form's schemas, the two-factor step) and the toasts every page
  // loads after its first paint stay out of the signed-in groups, so that they never load those.
  const later = needed(graph, [...(graph.getModuleInfo(LOGIN_PAGE)?.dynamicallyImportedIds ?? []), TOASTER]);
  for (const id of later) if (!groups.has(id)) groups.set(id, 'later');
  for (const id of needed(graph, [LAYOUT])) if (!groups.has(id)) groups.set(id, 'console');
  // The pages' own modules stay their chunks, which the router loads and the server preloads by name.
  groups.delete(LAYOUT);

  const screens = (graph.getModuleInfo(ROUTE_TABLE)?.dynamicallyImportedIds ?? []).filter(
    (id) => id !== LOGIN_PAGE && id !== LAYOUT,
  );
  // Without screens every shared module would become a chunk of its own, one more request each.
  if (screens.length === 0)
    throw new Error(`No screens imported by ${ROUTE_TABLE}: the chunks cannot be grouped`);
  const users = new Map<string, number>();
  for (const screen of screens) {
    for (const id of needed(graph, [screen])) {
      if (!groups.has(id) && !screens.includes(id)) users.set(id, (users.get(id) ?? 0) + 1);
    }
  }
  for (const [id, count] of users) if (count >= SHARED_BY) groups.set(id, 'screens');
  return new Map([...groups].filter((entry): entry is [string, Group] => entry[1] !== 'later'));
}
