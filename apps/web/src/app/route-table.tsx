import { Suspense, type ReactNode } from 'react';
import { Navigate, type DataRouter, type RouteObject } from 'react-router';
import { HOME_PATH } from '@/features/auth/sign-in-target';
import { ACCOUNT_SETUP_PATH, GuestOnly, RequireAuth } from './auth-guards';
import { lazyScreen, type LazyScreen } from './lazy-screen';
import { FullPageLoading } from './page-fallback';

// Every screen is its own chunk, so the sign-in page downloads only what it needs (performance budget).
export const LoginPage = lazyScreen(() => import('@/features/auth/login-page').then((m) => m.LoginPage));
const AppLayout = lazyScreen(() => import('./layout/app-layout').then((m) => m.AppLayout));
const OverviewRoute = lazyScreen(() => import('./routes/overview-route').then((m) => m.OverviewRoute));
const MetricsRoute = lazyScreen(() => import('./routes/metrics-route').then((m) => m.MetricsRoute));
const CallRoute = lazyScreen(() => import('./routes/call-route').then((m) => m.CallRoute));
const ProfileRoute = lazyScreen(() => import('./routes/profile-route').then((m) => m.ProfileRoute));
const UsersRoute = lazyScreen(() => import('./routes/users-route').then((m) => m.UsersRoute));
const ConfigRoute = lazyScreen(() => import('./routes/config-route').then((m) => m.ConfigRoute));
const MessagesRoute = lazyScreen(() => import('./routes/messages-route').then((m) => m.MessagesRoute));
const AlertsRoute = lazyScreen(() => import('./routes/alerts-route').then((m) => m.AlertsRoute));
const LimitsRoute = lazyScreen(() => import('./routes/limits-route').then((m) => m.LimitsRoute));
const AccountSetupRoute = lazyScreen(() =>
  import('./routes/account-setup-route').then((m) => m.AccountSetupRoute),
);
const AdminRoute = lazyScreen(() => import('./routes/admin-route').then((m) => m.AdminRoute));

function TopLevel({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageLoading />}>{children}</Suspense>;
}

/** Spec section 2: routes under the base path /admin (CONSOLE_BASE); each screen's `handle` loads its code. */
export const routes: RouteObject[] = [
  {
    path: '/login',
    handle: LoginPage,
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
    handle: AccountSetupRoute,
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
    handle: AppLayout,
    element: (
      <RequireAuth>
        <TopLevel>
          <AppLayout />
        </TopLevel>
      </RequireAuth>
    ),
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      { path: 'overview', handle: OverviewRoute, element: <OverviewRoute /> },
      { path: 'metrics', handle: MetricsRoute, element: <MetricsRoute /> },
      { path: 'metrics/calls/:id', handle: CallRoute, element: <CallRoute /> },
      { path: 'config', handle: ConfigRoute, element: <ConfigRoute /> },
      { path: 'messages', handle: MessagesRoute, element: <MessagesRoute /> },
      { path: 'alerts', handle: AlertsRoute, element: <AlertsRoute /> },
      { path: 'limits', handle: LimitsRoute, element: <LimitsRoute /> },
      { path: 'admin', handle: AdminRoute, element: <AdminRoute /> },
      { path: 'profile', handle: ProfileRoute, element: <ProfileRoute /> },
      { path: 'users', handle: UsersRoute, element: <UsersRoute /> },
    ],
  },
  { path: '*', element: <Navigate to={HOME_PATH} replace /> },
];

/** The screens a router's current address shows (their routes' `handle`), whose code can be loaded ahead. */
export function screensShown(router: DataRouter): LazyScreen[] {
  return router.state.matches.flatMap((match) => (match.route.handle as LazyScreen | undefined) ?? []);
}
