import { apiKeyContentSchema, type ApiKey, type ApiKeyContentInput } from '@lumi/contract';
import { z } from 'zod';

/** Patterns as the form edits them: one per line; blank lines are dropped. */
export const patternLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

/** The Content dialog's form: the contract's rules, with the patterns as lines of text. */
export const contentFormSchema = z
  .object({ capture_content: z.boolean(), patterns: z.string() })
  .superRefine((values, ctx) => {
    const parsed = apiKeyContentSchema.shape.content_redactions.safeParse(patternLines(values.patterns));
    if (!parsed.success)
      ctx.addIssue({ code: 'custom', path: ['patterns'], message: parsed.error.issues[0]!.message });
  });
export type ContentFormInput = z.input<typeof contentFormSchema>;

export const contentFormValues = (key: ApiKey): ContentFormInput => ({
  capture_content: key.capture_content,
  patterns: key.content_redactions.join('\n'),
});

export const toContentInput = (values: ContentFormInput): ApiKeyContentInput => ({
  capture_content: values.capture_content,
  content_redactions: patternLines(values.patterns),
});
