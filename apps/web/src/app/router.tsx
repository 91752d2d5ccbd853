import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { CONSOLE_BASE } from '@lumi/contract';
import { HOME_PATH } from '@/features/auth/sign-in-target';
import { ACCOUNT_SETUP_PATH, GuestOnly, RequireAuth } from './auth-guards';
import { FullPageLoading } from './page-fallback';

// Every screen is its own chunk, so the sign-in page downloads only what it needs (performance budget).
const LoginPage = lazy(() => import('@/features/auth/login-page').then((m) => ({ default: m.LoginPage })));
const AppLayout = lazy(() => import('./layout/app-layout').then((m) => ({ default: m.AppLayout })));
const OverviewRoute = lazy(() =>
  import('./routes/overview-route').then((m) => ({ default: m.OverviewRoute })),
);
const MetricsRoute = lazy(() => import('./routes/metrics-route').then((m) => ({ default: m.MetricsRoute })));
const CallRoute = lazy(() => import('./routes/call-route').then((m) => ({ default: m.CallRoute })));
const ProfileRoute = lazy(() => import('./routes/profile-route').then((m) => ({ default: m.ProfileRoute })));
const UsersRoute = lazy(() => import('./routes/users-route').then((m) => ({ default: m.UsersRoute })));
const ConfigRoute = lazy(() => import('./routes/config-route').then((m) => ({ default: m.ConfigRoute })));
const MessagesRoute = lazy(() =>
  import('./routes/messages-route').then((m) => ({ default: m.MessagesRoute })),
);
const AlertsRoute = lazy(() => import('./routes/alerts-route').then((m) => ({ default: m.AlertsRoute })));
const LimitsRoute = lazy(() => import('./routes/limits-route').then((m) => ({ default: m.LimitsRoute })));
const AccountSetupRoute = lazy(() =>
  import('./routes/account-setup-route').then((m) => ({ default: m.AccountSetupRoute })),
);
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
      path: ACCOUNT_SETUP_PATH,
      element: (
        <RequireAuth>
          <TopLevel>
            <AccountSetupRoute />
          </TopLevel>
        </RequireAuth>
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
        { path: 'overview', element: <OverviewRoute /> },
        { path: 'metrics', element: <MetricsRoute /> },
        { path: 'metrics/calls/:id', element: <CallRoute /> },
        { path: 'config', element: <ConfigRoute /> },
        { path: 'messages', element: <MessagesRoute /> },
        { path: 'alerts', element: <AlertsRoute /> },
        { path: 'limits', element: <LimitsRoute /> },
        { path: 'admin', element: <AdminRoute /> },
        { path: 'profile', element: <ProfileRoute /> },
        { path: 'users', element: <UsersRoute /> },
      ],
    },
    { path: '*', element: <Navigate to={HOME_PATH} replace /> },
  ],
  { basename: CONSOLE_BASE },
);
