import { TELEGRAM_TEXT_MAX_LENGTH } from '@lumi/telegram-markup';
import type { RenderProblem, RenderResult } from './rendering.js';

/**
 * What stops a template from being saved (the save guard on the server, the editor before it sends):
 * every error of its rendering with its variables' example values, except an empty message when some
 * variable it uses has no data, which depends on the data alone and stays a warning, and, for a template
 * that splits long messages (`splits`), a message whose only fault is its length.
 */
export function blockingProblems(result: RenderResult, options: { splits?: boolean } = {}): RenderProblem[] {
  if (options.splits && onlyTooLong(result)) return [];
  return errorsOf(result);
}

function errorsOf(result: RenderResult): RenderProblem[] {
  const lacksData = result.problems.some((p) => p.severity === 'warning' && p.source === 'template');
  return result.problems.filter(
    (p) => p.severity === 'error' && !(lacksData && p.source === 'message' && result.length === 0),
  );
}

/**
 * Whether the only thing Telegram would refuse is the length: the text renders and parses, and only
 * problems of the message as a whole stand (an empty message is length 0, so never this). A template that
 * splits long messages sends such a text in parts (docs/bot-developers/deliveries.md, "Long messages").
 */
export function onlyTooLong(result: RenderResult): boolean {
  const blocking = errorsOf(result);
  return (
    result.length > TELEGRAM_TEXT_MAX_LENGTH &&
    blocking.length > 0 &&
    blocking.every((p) => p.source === 'message' && p.line === null)
  );
}

/** Where a problem is in the template: its own position, or where the message's faulty text was written. */
export function templateSpot(problem: RenderProblem): { line: number; column: number } | null {
  if (problem.source === 'message') return problem.template_position ?? null;
  return problem.line !== null && problem.column !== null
    ? { line: problem.line, column: problem.column }
    : null;
}

/** 'Line 2, column 23: …' for a problem with a spot in the template, else the message alone. */
export function describeTemplateProblem(problem: RenderProblem): string {
  const spot = templateSpot(problem);
  return spot ? `Line ${spot.line}, column ${spot.column}: ${problem.message}` : problem.message;
}
