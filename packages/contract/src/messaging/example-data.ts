import type { Variable } from './variables.js';

/**
 * The data a template is tried with before it is saved or sent: its catalogued variables' example values.
 * The server's save guard and the console's sample data build it the same way, so what the editor shows
 * is what the guard checks.
 */
export type ExampleData = Record<string, unknown>;

/** A variable's example value as the JSON type its data type names (examples are stored as text). */
export function exampleValue({ data_type: type, example_value: raw }: Variable): unknown {
  if (raw === null) return undefined;
  switch (type) {
    case 'number':
    case 'integer': {
      const value = Number(raw);
      return raw.trim() !== '' && Number.isFinite(value) ? value : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'array':
    case 'object':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

/** Every variable of `variables` that has an example value, by name. */
export function buildExampleData(variables: readonly Variable[]): ExampleData {
  const data: ExampleData = {};
  for (const variable of variables) {
    const value = exampleValue(variable);
    if (value !== undefined) data[variable.variable_name] = value;
  }
  return data;
}

const MUSTACHE = /\{\{\{?([\s\S]*?)\}?\}\}/g;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * The catalogued variables a template's content names inside its `{{…}}` expressions, in catalogue order.
 * A name is looked for as a whole word in every expression (`{{formatNumber market_cap}}`, `{{#if
 * holders}}`), so a variable used only inside a loop's body counts too.
 */
export function variablesUsedBy<T extends Pick<Variable, 'variable_name'>>(
  content: string,
  variables: readonly T[],
): T[] {
  const named = new Set<string>();
  for (const [, expression] of content.matchAll(MUSTACHE)) {
    for (const [word] of (expression ?? '').matchAll(IDENTIFIER)) named.add(word);
  }
  return variables.filter((variable) => named.has(variable.variable_name));
}
