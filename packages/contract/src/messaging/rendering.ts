import { z } from 'zod';
import { DEFAULT_PARSE_MODE, MESSAGING_LIMITS, MESSAGING_MESSAGES, PARSE_MODES } from './constants.js';
import { sampleData } from './shared-fields.js';

/** Rendering a template or unsaved content for the preview (spec section 7, render). */

export const renderTemplateBodySchema = z.object({ data: sampleData });
export const renderContentBodySchema = z.object({
  template_content: z
    .string({ error: MESSAGING_MESSAGES.contentRequired })
    .max(MESSAGING_LIMITS.templateContentMax, MESSAGING_MESSAGES.contentTooLong),
  parse_mode: z.enum(PARSE_MODES).default(DEFAULT_PARSE_MODE),
  data: sampleData,
});
export type RenderContentBody = z.input<typeof renderContentBodySchema>;

export const renderProblemSchema = z.object({
  severity: z.enum(['error', 'warning']),
  /** 'template': the position is in the template source; 'message': in the rendered text. */
  source: z.enum(['template', 'message']),
  message: z.string(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  /**
   * For a problem in the rendered message: where in the template the text at fault was written (the
   * literal markup, or the `{{…}}` whose value it is), when that can be told.
   */
  template_position: z.object({ line: z.number().int(), column: z.number().int() }).optional(),
});
export type RenderProblem = z.infer<typeof renderProblemSchema>;

export const renderResultSchema = z
  .object({
    /** True when the text renders and Telegram would accept it. */
    success: z.boolean(),
    rendered: z.string(),
    /** The first error, with its line and column. */
    error: z.string().optional(),
    /** Characters Telegram counts: the text after entity parsing (at most 4096). */
    length: z.number().int(),
    warnings: z.array(z.string()),
    problems: z.array(renderProblemSchema),
  })
  .meta({ id: 'RenderResult' });
export type RenderResult = z.infer<typeof renderResultSchema>;
