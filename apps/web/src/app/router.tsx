import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { CONSOLE_BASE } from '@lumi/contract';
import { HOME_PATH } from '@/features/auth/sign-in-target';
import { GuestOnly, RequireAuth } from './auth-guards';
import { FullPageLoading } from './page-fallback';

// Every screen is its own chunk, so the sign-in page downloads only what it needs (performance budget).
const LoginPage = lazy(() => import('@/features/auth/login-page').then((m) => ({ default: m.LoginPage })));
const AppLayout = lazy(() => import('./layout/app-layout').then((m) => ({ default: m.AppLayout })));
const ComingSoonPage = lazy(() => import('./coming-soon-page').then((m) => ({ default: m.ComingSoonPage })));
const ProfileRoute = lazy(() => import('./routes/profile-route').then((m) => ({ default: m.ProfileRoute })));
const UsersRoute = lazy(() => import('./routes/users-route').then((m) => ({ default: m.UsersRoute })));
const AdminRoute = lazy(() => import('./routes/admin-route').then((m) => ({ default: m.AdminRoute })));

function TopLevel({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageLoading />}>{children}</Suspense>;
}

/** Spec section 2: routes under the base path /admin. */
export const router = createBrowserRouter(
  [
    {
      path: '/login',
      element: (
        <GuestOnly>
          <TopLevel>
            <LoginPage />
          </TopLevel>
        </GuestOnly>
      ),
    },
    {
      path: '/',
      element: (
        <RequireAuth>
          <TopLevel>
            <AppLayout />
          </TopLevel>
        </RequireAuth>
      ),
      children: [
        { index: true, element: <Navigate to={HOME_PATH} replace /> },
        { path: 'overview', element: <ComingSoonPage title="System Overview" /> },
        { path: 'metrics', element: <ComingSoonPage title="Metrics & Analytics" /> },
        { path: 'config', element: <ComingSoonPage title="Configuration Management" /> },
        { path: 'messages', element: <ComingSoonPage title="Message Templates" /> },
        { path: 'admin', element: <AdminRoute /> },
        { path: 'profile', element: <ProfileRoute /> },
        { path: 'users', element: <UsersRoute /> },
      ],
    },
    { path: '*', element: <Navigate to={HOME_PATH} replace /> },
  ],
  { basename: CONSOLE_BASE },
);
