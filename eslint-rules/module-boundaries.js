import path from 'node:path';

/**
 * The server's module boundary (engineering guide, "The shape"): a module reaches another only through its
 * service, never its repository (`*.repository.ts`) or its `storage/` folder. An import is resolved to the
 * file it names, and both ends are placed in their module: `modules/<area>`, or `modules/<area>/<part>` for
 * the areas listed in `containers`, whose sub-folders are modules of their own (messaging's channels,
 * templates, deliveries …). Files outside `modules/` (app.ts, services.ts, plugins/) belong to no module
 * and may not reach into one's storage either.
 */
export const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "Forbid importing another server module's repositories or storage/ files" },
    schema: [
      {
        type: 'object',
        properties: {
          modulesDir: { type: 'string' },
          containers: { type: 'array', items: { type: 'string' } },
        },
        required: ['modulesDir'],
        additionalProperties: false,
      },
    ],
    messages: {
      storage:
        "'{{source}}' is the {{target}} module's storage: reach another module through its service, never its repository.",
    },
  },
  create(context) {
    const { modulesDir, containers = [] } = context.options[0];
    const root = path.resolve(context.cwd, modulesDir);

    /** The module a file belongs to, and the file's path inside it; null outside the modules folder. */
    const placeOf = (file) => {
      const inside = path.relative(root, file);
      if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
      const parts = inside.split(path.sep);
      const depth = containers.includes(parts[0]) && parts.length > 2 ? 2 : 1;
      return { module: parts.slice(0, depth).join('/'), rest: parts.slice(depth) };
    };

    const here = placeOf(context.filename);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const there = placeOf(path.resolve(path.dirname(context.filename), source));
      if (!there || there.module === here?.module) return;
      const file = there.rest.at(-1) ?? '';
      const isStorage =
        /\.repository(\.[cm]?[jt]s)?$/.test(file) || there.rest.slice(0, -1).includes('storage');
      if (isStorage)
        context.report({ node: node.source, messageId: 'storage', data: { source, target: there.module } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
