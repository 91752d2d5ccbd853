import { createContext, useContext } from 'react';

/**
 * The Metrics screen's auto-refresh interval in milliseconds, or false when off. The screen provides it;
 * its queries pass it to TanStack Query as refetchInterval, which pauses while the tab is hidden
 * (refetchIntervalInBackground stays false). Other screens using the same queries do not provide it.
 */
export const AutoRefreshContext = createContext<number | false>(false);

export function useAutoRefreshInterval(): number | false {
  return useContext(AutoRefreshContext);
}
