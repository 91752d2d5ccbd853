import { TEMPLATE_HELPER_NAMES, type RenderProblem } from '@lumi/contract';

/**
 * What the renderer learns from a template's Handlebars syntax tree before running it: unknown helpers
 * and unsupported features (errors, with their line and column), and top-level variables the sample data
 * does not have (warnings). It also rewrites every `{{…}}` so its value passes through the slot helper,
 * which is how values, and only values, get escaped for the parse mode (and `{{{…}}}` through the raw
 * helper, which counts it against the render budget).
 */

/** Handlebars' own helpers that a message template may use. */
const BLOCK_HELPERS = new Set(['if', 'unless', 'each', 'with']);
const VALUE_HELPERS = new Set<string>([...TEMPLATE_HELPER_NAMES, 'lookup']);
/** Blocks whose body sees another context than the data's top level. */
const CONTEXT_BLOCKS = new Set(['each', 'with']);

export const SLOT_HELPER = '__lumiSlot';
/** `{{{…}}}` values pass through this helper unescaped, so the render budget sees them too. */
export const RAW_HELPER = '__lumiRaw';

type Node = hbs.AST.Node;
type Expression = hbs.AST.Expression;

interface Walk {
  problems: RenderProblem[];
  data: Record<string, unknown>;
  missing: Set<string>;
}

function problem(severity: RenderProblem['severity'], message: string, node: Node): RenderProblem {
  return {
    severity,
    source: 'template',
    message,
    line: node.loc?.start.line ?? null,
    column: node.loc ? node.loc.start.column + 1 : null,
  };
}

function helperName(path: hbs.AST.PathExpression | hbs.AST.Literal): string | null {
  if (path.type !== 'PathExpression') return null;
  const p = path as hbs.AST.PathExpression;
  return p.data || p.depth > 0 || p.parts.length !== 1 ? p.original : (p.parts[0] ?? null);
}

function checkHelper(walk: Walk, path: hbs.AST.PathExpression, allowed: Set<string>, kind: string) {
  const name = helperName(path);
  if (name !== null && !allowed.has(name)) {
    const known = [...allowed].join(', ');
    walk.problems.push(problem('error', `Unknown ${kind} '${name}'. Available: ${known}`, path));
  }
}

function checkVariable(walk: Walk, path: hbs.AST.PathExpression, topLevel: boolean) {
  const name = path.parts[0];
  if (!topLevel || path.data || path.depth > 0 || name === undefined) return;
  if (Object.hasOwn(walk.data, name) || walk.missing.has(name)) return;
  walk.missing.add(name);
  walk.problems.push(
    problem('warning', `'${name}' is not in the data, so {{${path.original}}} renders as nothing`, path),
  );
}

function walkExpression(walk: Walk, expression: Expression, topLevel: boolean) {
  if (expression.type === 'PathExpression') {
    checkVariable(walk, expression as hbs.AST.PathExpression, topLevel);
  } else if (expression.type === 'SubExpression') {
    const sub = expression as hbs.AST.SubExpression;
    checkHelper(walk, sub.path, VALUE_HELPERS, 'helper');
    walkArguments(walk, sub.params, sub.hash, topLevel);
  }
}

function walkArguments(walk: Walk, params: Expression[], hash: hbs.AST.Hash | undefined, topLevel: boolean) {
  for (const param of params) walkExpression(walk, param, topLevel);
  for (const pair of hash?.pairs ?? []) walkExpression(walk, pair.value, topLevel);
}

function walkProgram(walk: Walk, program: hbs.AST.Program | undefined, topLevel: boolean) {
  for (const statement of program?.body ?? []) walkStatement(walk, statement, topLevel);
}

function walkStatement(walk: Walk, node: hbs.AST.Statement, topLevel: boolean) {
  switch (node.type) {
    case 'MustacheStatement': {
      const mustache = node as hbs.AST.MustacheStatement;
      const path = mustache.path;
      const isCall = mustache.params.length > 0 || (mustache.hash?.pairs.length ?? 0) > 0;
      const name = helperName(path);
      if (path.type === 'PathExpression' && (isCall || (name !== null && VALUE_HELPERS.has(name)))) {
        checkHelper(walk, path as hbs.AST.PathExpression, VALUE_HELPERS, 'helper');
        walkArguments(walk, mustache.params, mustache.hash, topLevel);
      } else {
        walkExpression(walk, path, topLevel);
      }
      return;
    }
    case 'BlockStatement': {
      const block = node as hbs.AST.BlockStatement;
      checkHelper(walk, block.path, BLOCK_HELPERS, 'block helper');
      walkArguments(walk, block.params, block.hash, topLevel);
      const name = helperName(block.path) ?? '';
      walkProgram(walk, block.program, topLevel && !CONTEXT_BLOCKS.has(name));
      walkProgram(walk, block.inverse, topLevel);
      return;
    }
    case 'PartialStatement':
    case 'PartialBlockStatement':
      walk.problems.push(
        problem('error', 'Partials ({{> name}}) are not available in message templates', node),
      );
      return;
    case 'DecoratorBlock':
    case 'Decorator':
      walk.problems.push(
        problem('error', 'Decorators ({{* name}}) are not available in message templates', node),
      );
      return;
    default:
      return;
  }
}

/** Unknown helpers and unsupported features (errors), variables missing from `data` (warnings). */
export function analyseTemplate(ast: hbs.AST.Program, data: Record<string, unknown>): RenderProblem[] {
  const walk: Walk = { problems: [], data, missing: new Set() };
  walkProgram(walk, ast, true);
  return walk.problems;
}

/**
 * Rewrites `{{x}}` to `{{__lumiSlot x}}` and `{{h a b}}` to `{{__lumiSlot (h a b)}}`; `{{{x}}}` likewise
 * to `{{{__lumiRaw x}}}`, which inserts the value as it is.
 */
export function routeValuesThroughSlots(program: hbs.AST.Program | undefined): void {
  for (const node of program?.body ?? []) {
    if (node.type === 'BlockStatement') {
      const block = node as hbs.AST.BlockStatement;
      routeValuesThroughSlots(block.program);
      routeValuesThroughSlots(block.inverse);
      continue;
    }
    if (node.type !== 'MustacheStatement') continue;
    const mustache = node as hbs.AST.MustacheStatement;
    const helper = mustache.escaped ? SLOT_HELPER : RAW_HELPER;
    const slot: hbs.AST.PathExpression = {
      type: 'PathExpression',
      data: false,
      depth: 0,
      parts: [helper],
      original: helper,
      loc: mustache.loc,
    };
    const isCall = mustache.params.length > 0 || (mustache.hash?.pairs.length ?? 0) > 0;
    const name = helperName(mustache.path);
    const value: Expression =
      isCall || (name !== null && VALUE_HELPERS.has(name))
        ? ({
            type: 'SubExpression',
            path: mustache.path as hbs.AST.PathExpression,
            params: mustache.params,
            hash: mustache.hash,
            loc: mustache.loc,
          } as hbs.AST.SubExpression)
        : mustache.path;
    mustache.path = slot;
    mustache.params = [value];
    (mustache as { hash?: hbs.AST.Hash }).hash = undefined;
  }
}
