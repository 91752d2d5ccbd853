import type { Permission } from '@lumi/contract';
import {
  BarChart3,
  BellRing,
  Gauge,
  LayoutDashboard,
  MessageSquare,
  Settings2,
  ShieldCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { useHasPermission } from '@/lib/permissions';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Hides the item from the desktop bar when the user lacks it; the screen checks again itself. */
  permission?: Permission;
}

/** Spec section 2, Top bar and navigation. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Overview', to: '/overview', icon: LayoutDashboard },
  { label: 'Metrics', to: '/metrics', icon: BarChart3 },
  { label: 'Configuration', to: '/config', icon: Settings2 },
  { label: 'Messages', to: '/messages', icon: MessageSquare },
  { label: 'Alerts', to: '/alerts', icon: BellRing, permission: 'alerts:read' },
  { label: 'Limits', to: '/limits', icon: Gauge, permission: 'metrics:read' },
  { label: 'Users', to: '/users', icon: Users, permission: 'users:read' },
  { label: 'Admin', to: '/admin', icon: ShieldCheck, permission: 'admin:audit:read' },
];

/** The items of the desktop bar: those the user has the permission for. */
export function usePermittedNavItems(): NavItem[] {
  const granted: Partial<Record<Permission, boolean>> = {
    'alerts:read': useHasPermission('alerts:read'),
    'metrics:read': useHasPermission('metrics:read'),
    'users:read': useHasPermission('users:read'),
    'admin:audit:read': useHasPermission('admin:audit:read'),
  };
  return NAV_ITEMS.filter((item) => !item.permission || granted[item.permission]);
}
