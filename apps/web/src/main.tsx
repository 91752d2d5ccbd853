import './lib/zod-jitless';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadFirstScreens } from './app/router';
import { restoreSession } from './app/session-restore';
import { holdCalls } from './lib/api-client';
import { loadFormatData } from './lib/intl';
import { useAuthStore } from './lib/auth-store';
import { applyTheme } from './lib/theme-store';
import './styles.css';

/** The longest the first screen's calls wait for its first paint. */
const FIRST_PAINT_WAIT_MAX_MS = 2_000;

applyTheme();
void restoreSession();

// The first screen's code before the first render, so it paints at once (app/router.tsx, loadFirstScreens);
// its data calls wait until that paint is on screen (lib/api-client.ts, holdCalls; lib/use-after-paint.ts).
const releaseCalls = holdCalls();
// A tab opened in the background paints nothing until it is shown: its data loads meanwhile, as before.
if (document.visibilityState === 'hidden') releaseCalls();
// However the first paint goes, the calls are not held for longer than this.
setTimeout(releaseCalls, FIRST_PAINT_WAIT_MAX_MS);
const afterFirstPaint = () => {
  releaseCalls();
  // In a task of its own, before the answers arrive and their render needs it; the sign-in page formats nothing.
  if (useAuthStore.getState().isAuthenticated) setTimeout(loadFormatData);
};
void loadFirstScreens(useAuthStore.getState().isAuthenticated).then(() => {
  const root = createRoot(document.getElementById('root')!);
  // In a transition, React renders the first screen in slices, yielding to the browser between them, so the
  // phone is never blocked for the whole render at once (docs/benchmarks.md, "The first signed-in load").
  startTransition(() =>
    root.render(
      <StrictMode>
        <App onFirstPaint={afterFirstPaint} />
      </StrictMode>,
    ),
  );
});
