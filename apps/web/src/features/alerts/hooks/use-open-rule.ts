import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The URL parameter of the rule whose editor is open; alert notifications link to it. */
export const RULE_PARAM = 'rule';

/**
 * The rule opened from a link (?rule=<id>), in the URL so a notification's link lands on it. Opening is a
 * step in the history (Back closes it); closing replaces the entry.
 */
export function useOpenRule() {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get(RULE_PARAM));
  const openRuleId = Number.isSafeInteger(id) && id > 0 ? id : null;
  const setOpenRuleId = useCallback(
    (ruleId: number | null) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (ruleId === null) updated.delete(RULE_PARAM);
          else updated.set(RULE_PARAM, String(ruleId));
          return updated;
        },
        { replace: ruleId === null },
      ),
    [setParams],
  );
  return { openRuleId, setOpenRuleId };
}
