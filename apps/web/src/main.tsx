import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadFirstScreens } from './app/router';
import { restoreSession } from './app/session-restore';
import { useAuthStore } from './lib/auth-store';
import { applyTheme } from './lib/theme-store';
import './styles.css';

applyTheme();
void restoreSession();

// The first screen's code before the first render, so it paints at once (app/router.tsx, loadFirstScreens).
void loadFirstScreens(useAuthStore.getState().isAuthenticated).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
