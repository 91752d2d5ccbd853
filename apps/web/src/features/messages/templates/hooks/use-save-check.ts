import {
  blockingProblems,
  buildExampleData,
  variablesUsedBy,
  type ParseMode,
  type RenderProblem,
} from '@lumi/contract';
import { useMemo } from 'react';
import { useRenderedPreview } from '../../rendering/hooks/use-rendered-preview';
import { useVariables } from '../../variables/api/list-variables';

const NONE: readonly RenderProblem[] = [];

/**
 * The save guard, run as the operator types: the content rendered with the example values of the
 * variables it uses, and what of it would stop a save (the rule the server applies, from the contract; a
 * template that splits long messages may be longer than one).
 * `upToDate` is false while a check of the latest content is still on its way. Nothing is checked while
 * `enabled` is false (a reader who cannot save).
 */
export function useSaveCheck(content: string, parseMode: ParseMode, splits: boolean, enabled: boolean) {
  const variables = useVariables();
  const data = useMemo(
    () => buildExampleData(variablesUsedBy(content, variables.data ?? [])),
    [content, variables.data],
  );
  const check = useRenderedPreview({ template: null, content: enabled ? content : '', parseMode, data });
  const result = check.data;
  const upToDate = enabled && !check.rendering && !check.isPlaceholderData && result !== undefined;
  return {
    upToDate,
    blocking: result ? blockingProblems(result, { splits }) : NONE,
    warnings: result ? result.problems.filter((p) => p.severity === 'warning') : NONE,
  };
}
