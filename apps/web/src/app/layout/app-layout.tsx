import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageFallback } from '../page-fallback';
import { TopBar } from './top-bar';

/** The protected layout: top bar and the current screen, each screen loading lazily behind a skeleton. */
export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <TopBar />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-7xl px-4 py-6 outline-none md:px-6 md:py-8"
      >
        {/* Keyed by path so a screen that is still loading shows its skeleton instead of the previous one. */}
        <Suspense key={pathname} fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
