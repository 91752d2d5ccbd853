import { TELEGRAM_ID_PATTERN } from '@lumi/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { idFromUrl, useUrlFilterSetters } from '@/lib/url-filters';

/** The denials' filters, as they sit in the URL (?view=denials&chat_id=-100123&user_id=42&limit_id=3). */
export interface DenialFilters {
  chatId: string | null;
  userId: string | null;
  limitId: number | null;
}

/** Named in the URL as the API names them (GET /api/limits/denials). */
export const DENIAL_PARAMS = { chatId: 'chat_id', userId: 'user_id', limitId: 'limit_id' } as const;

const telegramId = (value: string | null) =>
  value !== null && TELEGRAM_ID_PATTERN.test(value) ? value : null;

/**
 * The denials' filters, kept in the URL so a reload or a shared link opens the same list; a value the API
 * would refuse counts as no filter. A change replaces the history entry, so Back leaves the screen.
 */
export function useDenialFilters() {
  const [params, setParams] = useSearchParams();
  const chat = params.get(DENIAL_PARAMS.chatId);
  const user = params.get(DENIAL_PARAMS.userId);
  const limit = params.get(DENIAL_PARAMS.limitId);
  const filters = useMemo<DenialFilters>(
    () => ({ chatId: telegramId(chat), userId: telegramId(user), limitId: idFromUrl(limit) }),
    [chat, user, limit],
  );
  const { setFilter, clearFilters } = useUrlFilterSetters<DenialFilters>(DENIAL_PARAMS);
  // Several filters in one change of the URL: two setFilter calls in a row would each start from the same
  // URL, and the second would undo the first.
  const setFilters = useCallback(
    (next: Partial<DenialFilters>) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(next) as [keyof DenialFilters, unknown][]) {
            if (value === null || value === undefined) updated.delete(DENIAL_PARAMS[name]);
            else updated.set(DENIAL_PARAMS[name], String(value));
          }
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { filters, setFilter, setFilters, clearFilters };
}
