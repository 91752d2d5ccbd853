import type { ParseMode, RenderProblem, RenderResult } from '@lumi/contract';
import {
  checkTelegramText,
  escapeFor,
  parseMarkup,
  SLOT_PATTERN,
  slotMarker,
  type SlotContext,
} from '@lumi/telegram-markup';
import Handlebars from 'handlebars';
import { checkExpressionCount, RenderBudget, RenderBusyError, RenderLimitError } from './render-budget.js';
import { analyseTemplate, RAW_HELPER, routeValuesThroughSlots, SLOT_HELPER } from './template-analysis.js';
import { offsetOf, templatePosition, type SlotSource } from './template-positions.js';
import { templateHelpers } from './template-helpers.js';

/**
 * Renders a message template with Handlebars and the helpers of spec section 2 ("Messages (/messages)"),
 * escapes each substituted value for the parse mode and the place it lands in, and checks the result against
 * Telegram's rules, so the preview shows exactly what sendMessage would accept.
 *
 * Values are escaped by position, not by Handlebars: every escaped `{{…}}` first renders as a marker and
 * the value is kept aside; the markup around the markers is then parsed like Telegram parses it, which
 * tells whether a value sits in text, in code or in a link URL (MarkdownV2 escapes differently there);
 * finally each marker is replaced by its value escaped for that place. `{{{…}}}` inserts a value as
 * markup, unescaped, as in Handlebars.
 *
 * The rendering runs within a RenderBudget: a template that loops too often, produces far more than
 * Telegram takes or runs too long is stopped where it passes the limit, with a RenderLimitError (422).
 */

/** The shape of a Handlebars error: parse errors carry no position, the lexer knows it. */
interface HandlebarsError {
  message: string;
  lineNumber?: number;
  column?: number;
}
interface HandlebarsLexer {
  Parser?: { lexer?: { yylloc?: { first_line: number; first_column: number }; match?: string } };
}

export interface RenderOptions {
  /** The clock of formatTimeAgo; tests fix it. */
  now?: () => number;
  /** Limits of this rendering; tests pass tighter ones or a clock they control. */
  budget?: RenderBudget;
}

/**
 * Handlebars' `each`, with every iteration counted against the budget and the output of the loop measured
 * as it grows, so a loop stops as soon as it passes the output limit.
 */
function boundedEach(each: Handlebars.HelperDelegate, budget: RenderBudget): Handlebars.HelperDelegate {
  return function (this: unknown, ...args: unknown[]) {
    // Handlebars passes its options last, after however many arguments the template gave.
    const options = args.pop() as Handlebars.HelperOptions;
    const body = options.fn;
    let produced = 0;
    const fn = Object.assign((item: unknown, frame?: Handlebars.RuntimeOptions) => {
      budget.iterate();
      const out = body(item, frame);
      produced += out.length;
      budget.checkOutput(produced);
      return out;
    }, body);
    return each.call(this, ...args, { ...options, fn }) as unknown;
  };
}

/** Handlebars' own exceptions (a block closed by the wrong name, #each without a list …). */
function templateProblem(error: HandlebarsError): RenderProblem {
  const firstLine = (error.message.split('\n')[0] ?? error.message).replace(/ - \d+:\d+$/, '');
  // Their message ends in " - line:column" when they know where.
  const mismatch = /^(\S+) doesn't match (\S+)$/.exec(firstLine);
  const message = mismatch
    ? `Template error: {{#${mismatch[1]}}} is closed by {{/${mismatch[2]}}}`
    : `Template error: ${firstLine}`;
  const known = error.lineNumber !== undefined && error.column !== undefined;
  return {
    severity: 'error',
    source: 'template',
    message,
    line: known ? error.lineNumber! : null,
    column: known ? error.column! + 1 : null,
  };
}

function syntaxProblem(error: HandlebarsError, content: string): RenderProblem {
  if (error.lineNumber !== undefined || !/^(Parse|Lexical) error/.test(error.message)) {
    return templateProblem(error);
  }
  const firstLine = error.message.split('\n')[0] ?? error.message;
  const lexer = (Handlebars as unknown as HandlebarsLexer).Parser?.lexer;
  const location = lexer?.yylloc;
  const got = /, got '([^']+)'$/.exec(error.message)?.[1];
  let message = 'Template syntax error';
  if (got === 'EOF') {
    message += ': the template ends inside a {{…}} or before a block ({{#if}}, {{#each}} …) is closed';
  } else if (location) {
    const line = content.split('\n')[location.first_line - 1] ?? '';
    const rest = line.slice(location.first_column);
    if (got === 'INVALID') {
      message += `: cannot read '${(rest.split(/\s/)[0] ?? rest).slice(0, 20)}' (is a '}}' missing?)`;
    } else if (lexer?.match || rest) {
      message += `: unexpected '${(lexer?.match || rest).slice(0, 20)}'`;
    }
  }
  if (/^Lexical error/.test(firstLine)) message = 'Template syntax error: text that is not Handlebars syntax';
  return {
    severity: 'error',
    source: 'template',
    message,
    line: location?.first_line ?? null,
    column: location ? location.first_column + 1 : null,
  };
}

function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && !(value instanceof Handlebars.SafeString))
    return JSON.stringify(value) ?? '';
  return String(value);
}

/** 'Line 2, column 5: …' for people; the position says which text it is in. */
function describeProblem(problem: RenderProblem): string {
  if (problem.line === null) return problem.message;
  const where = problem.source === 'template' ? 'Template' : 'Rendered message';
  return `${where} line ${problem.line}, column ${problem.column}: ${problem.message}`;
}

function result(rendered: string, length: number, problems: RenderProblem[]): RenderResult {
  const firstError = problems.find((p) => p.severity === 'error');
  return {
    success: firstError === undefined,
    rendered,
    ...(firstError && { error: describeProblem(firstError) }),
    length,
    warnings: problems.filter((p) => p.severity === 'warning').map(describeProblem),
    problems,
  };
}

interface Parsed {
  /** The template as written, for the analysis. */
  ast: hbs.AST.Program;
  /** Compiled from a copy whose values go through the slot helpers; helpers are given per call. */
  template: HandlebarsTemplateDelegate;
}

/** Templates parsed and compiled lately, by content: a broadcast renders one template many times. */
const parsedTemplates = new Map<string, Parsed>();
const PARSED_CACHE_SIZE = 200;

/** The parsed and compiled template of `content` (throws Handlebars' syntax error). */
function parse(content: string): Parsed {
  const hit = parsedTemplates.get(content);
  if (hit) {
    parsedTemplates.delete(content);
    parsedTemplates.set(content, hit);
    return hit;
  }
  const env = Handlebars.create();
  const ast = env.parse(content);
  const routed = env.parse(content);
  routeValuesThroughSlots(routed);
  const parsed = { ast, template: env.compile(routed, { noEscape: true, strict: false, compat: false }) };
  parsedTemplates.set(content, parsed);
  // Map iteration is insertion order: the first key is the least recently used.
  if (parsedTemplates.size > PARSED_CACHE_SIZE) parsedTemplates.delete(parsedTemplates.keys().next().value!);
  return parsed;
}

export function renderTemplate(
  content: string,
  parseMode: ParseMode,
  data: Record<string, unknown>,
  options: RenderOptions = {},
): RenderResult {
  checkExpressionCount(content);
  let parsed: Parsed;
  try {
    parsed = parse(content);
  } catch (error) {
    return result('', 0, [syntaxProblem(error as HandlebarsError, content)]);
  }
  const analysis = analyseTemplate(parsed.ast, data);
  if (analysis.some((p) => p.severity === 'error')) return result('', 0, analysis);

  const budget = options.budget ?? new RenderBudget();
  const values: string[] = [];
  const sources: (SlotSource | undefined)[] = [];
  let output: string;
  try {
    output = parsed.template(data, {
      helpers: {
        ...templateHelpers(options.now),
        each: boundedEach(Handlebars.helpers.each as Handlebars.HelperDelegate, budget),
        [SLOT_HELPER]: (value: unknown, options: { loc?: SlotSource }) => {
          const text = valueText(value);
          budget.value(text);
          values.push(text);
          sources.push(options.loc);
          return slotMarker(values.length - 1);
        },
        [RAW_HELPER]: (value: unknown) => {
          const text = value === undefined || value === null ? '' : String(value);
          budget.value(text);
          return text;
        },
      },
    });
    budget.checkOutput(output.length);
  } catch (error) {
    if (error instanceof RenderLimitError || error instanceof RenderBusyError) throw error;
    return result('', 0, [...analysis, templateProblem(error as HandlebarsError)]);
  }

  const contexts = new Map<number, SlotContext>();
  parseMarkup(parseMode, output, { onSlot: (index, context) => contexts.set(index, context) });
  const inserted: string[] = [];
  const rendered = output.replace(SLOT_PATTERN, (_, index: string) => {
    const value = escapeFor(parseMode, values[Number(index)] ?? '', contexts.get(Number(index)) ?? 'text');
    inserted[Number(index)] = value;
    return value;
  });
  const check = checkTelegramText(rendered, parseMode);
  const messageProblems = check.problems.map((problem): RenderProblem => {
    if (problem.line === null || problem.column === null) return { ...problem, source: 'message' };
    const offset = offsetOf(rendered, problem.line, problem.column);
    const position = templatePosition(content, output, inserted, sources, offset);
    return { ...problem, source: 'message', ...(position && { template_position: position }) };
  });
  return result(rendered, check.length, [...analysis, ...messageProblems]);
}
