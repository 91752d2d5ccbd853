import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** An id as the URL holds it: a positive whole number, or null for anything else. */
export function idFromUrl(value: string | null): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * Sets and clears a list's filters kept in the URL, each under its query parameter in `names` (a module
 * constant). Changes replace the history entry, so Back leaves the view instead of undoing each choice;
 * the URL's other parameters stay as they are.
 */
export function useUrlFilterSetters<F extends object>(names: {
  readonly [K in keyof F]: string;
}) {
  const [, setParams] = useSearchParams();

  const setFilter = useCallback(
    <K extends keyof F>(name: K, value: F[K] | null) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (value === null) updated.delete(names[name]);
          else updated.set(names[name], String(value));
          return updated;
        },
        { replace: true },
      ),
    [setParams, names],
  );

  const clearFilters = useCallback(
    () =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          for (const name of Object.values<string>(names)) updated.delete(name);
          return updated;
        },
        { replace: true },
      ),
    [setParams, names],
  );

  return { setFilter, clearFilters };
}

/**
 * The view a screen with tabs shows (Alerts, Messages): `?view=…`, so a link or a reload opens it; the
 * default view when the URL names none or one the screen does not have. Each view has parameters of its
 * own in the URL: choosing another view starts it without them.
 */
export function useViewParam<V extends string>(views: ReadonlyArray<{ value: V }>, defaultView: V) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('view');
  const view = views.find((candidate) => candidate.value === requested)?.value ?? defaultView;
  const selectView = (value: string) => setParams(value === defaultView ? {} : { view: value });
  return [view, selectView] as const;
}
