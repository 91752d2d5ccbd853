import { lazy, useState, type ComponentType, type JSX } from 'react';

/** A screen in a chunk of its own, with a way to load that chunk before the screen is rendered. */
export interface LazyScreen<Props extends object = object> {
  (props: Props): JSX.Element;
  /** Loads the screen's chunk (once); main.tsx awaits it for the screens the first address names. */
  preload: () => Promise<unknown>;
}

/**
 * `React.lazy` that renders at once when its code is already loaded. React shows a lazy component's
 * fallback until the import's promise settles, even one whose module is there, and then holds the content
 * back for its fallback throttle (300 ms): on the first load that is a "Loading..." page and a wait after
 * the screen's code has arrived (docs/benchmarks.md, "The first signed-in load"). A screen loaded before
 * it renders (`preload`) skips both; any other suspends behind its Suspense fallback as `React.lazy` does.
 */
export function lazyScreen<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): LazyScreen<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Screen(props: Props) {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount the screen.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Screen, { preload });
}
