import {
  blockingProblems,
  buildExampleData,
  describeTemplateProblem,
  templateSpot,
  variablesUsedBy,
  type FieldError,
  type ParseMode,
  type RenderProblem,
} from '@lumi/contract';
import { ValidationError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import type { VariablesService } from '../variables/variables.service.js';
import { sharedRenderPool, type RenderPool } from './render-pool.js';

/**
 * Saving cannot break sending: a template is saved (created, edited or
 * restored) only if it renders, with its catalogued variables' example values, into a message Telegram
 * would accept. A problem that depends on the data alone (a variable with no example, so an empty
 * message) is left to the preview's warnings; everything else answers 422 with where in the template it is.
 */
export class TemplateGuard {
  constructor(
    private readonly variables: VariablesService,
    private readonly now: Clock,
    private readonly pool: RenderPool = sharedRenderPool,
  ) {}

  /** The data a template is tried with: the example values of the variables it names. */
  private async exampleDataFor(content: string): Promise<Record<string, unknown>> {
    return buildExampleData(variablesUsedBy(content, await this.variables.list()));
  }

  /**
   * Throws a 422 naming the first problem (and listing all) when the template must not be saved. A
   * template that splits long messages may be longer than one message (docs/bot-developers/deliveries.md,
   * "Long messages").
   */
  async check(
    content: string,
    parseMode: ParseMode,
    options: { splits: boolean; what?: string },
  ): Promise<void> {
    const result = await this.pool.render(content, parseMode, await this.exampleDataFor(content), this.now());
    const blocking = blockingProblems(result, { splits: options.splits });
    const first = blocking[0];
    if (!first) return;
    const what = options.what ?? 'The template cannot be saved';
    throw new ValidationError(blocking.map(fieldError), `${what}: ${describeTemplateProblem(first)}`);
  }
}

function fieldError(problem: RenderProblem): FieldError {
  return { path: 'template_content', message: problem.message, ...templateSpot(problem) };
}
