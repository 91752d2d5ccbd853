import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadFirstScreens } from './app/router';
import { restoreSession } from './app/session-restore';
import { holdCalls } from './lib/api-client';
import { loadFormatData } from './lib/intl';
import { useAuthStore } from './lib/auth-store';
import { applyTheme } from './lib/theme-store';
import './styles.css';

applyTheme();
void restoreSession();

// The first screen's code before the first render, so it paints at once (app/router.tsx, loadFirstScreens);
// its data calls wait until that paint is on screen (lib/api-client.ts, holdCalls; lib/use-after-paint.ts).
const releaseCalls = holdCalls();
const afterFirstPaint = () => {
  releaseCalls();
  // In a task of its own, before the answers arrive and their render needs it.
  setTimeout(loadFormatData);
};
void loadFirstScreens(useAuthStore.getState().isAuthenticated).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App onFirstPaint={afterFirstPaint} />
    </StrictMode>,
  ),
);
