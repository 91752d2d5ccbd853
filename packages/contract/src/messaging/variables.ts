import { z } from 'zod';
import { requiredString } from '../fields.js';
import { MESSAGING_MESSAGES, TEMPLATE_HELPER_NAMES, VARIABLE_DATA_TYPES } from './constants.js';
import { description, descriptionUpdate, idParam } from './shared-fields.js';

/** The variable catalogue of the editor's Variables panel (spec section 2, Messages). */

export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The panel's default group (spec section 2, Messages). */
export const DEFAULT_VARIABLE_CATEGORY = 'General';

const variableName = requiredString(MESSAGING_MESSAGES.variableNameRequired).regex(
  VARIABLE_NAME_PATTERN,
  MESSAGING_MESSAGES.variableNameInvalid,
);
const category = z.string().trim().max(100, 'Category must be at most 100 characters').nullish();
const exampleValue = z.string().max(1000, 'Example value must be at most 1000 characters').nullish();
const availableHelpers = z
  .array(z.enum(TEMPLATE_HELPER_NAMES, { error: `Helpers are: ${TEMPLATE_HELPER_NAMES.join(', ')}` }))
  .transform((helpers) => [...new Set(helpers)]);

export const variableInputSchema = z.object({
  variable_name: variableName,
  data_type: z.enum(VARIABLE_DATA_TYPES).default('string'),
  description,
  category: category.transform((v) => v || DEFAULT_VARIABLE_CATEGORY),
  example_value: exampleValue.transform((v) => v ?? null),
  available_helpers: availableHelpers.default([]),
});
export type VariableInput = z.input<typeof variableInputSchema>;
export type VariableValues = z.output<typeof variableInputSchema>;
/** PUT: the fields sent are changed, the others keep their values. */
export const variableUpdateSchema = z.object({
  variable_name: variableName.optional(),
  data_type: z.enum(VARIABLE_DATA_TYPES).optional(),
  description: descriptionUpdate,
  category,
  example_value: exampleValue,
  available_helpers: availableHelpers.optional(),
});
export type VariableUpdate = z.output<typeof variableUpdateSchema>;

export const variableSchema = z
  .object({
    id: z.number().int(),
    variable_name: z.string(),
    data_type: z.enum(VARIABLE_DATA_TYPES),
    description: z.string(),
    category: z.string(),
    example_value: z.string().nullable(),
    available_helpers: z.array(z.string()),
  })
  .meta({ id: 'MessageVariable' });
export type Variable = z.infer<typeof variableSchema>;
export const variableParamsSchema = z.object({ id: idParam });
