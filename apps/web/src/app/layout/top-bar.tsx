import { Link } from 'react-router';
import { DesktopNav } from './desktop-nav';
import { MobileMenu } from './mobile-menu';
import { ThemeMenu } from './theme-menu';
import { UserMenu } from './user-menu';

/** Product title, navigation, theme menu and user menu (spec section 2). */
export function TopBar() {
  return (
    <header className="sticky top-0 z-30 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:px-4 md:gap-6 md:px-6">
        <MobileMenu />
        <Link to="/overview" className="shrink-0 rounded-md px-1 text-lg font-bold tracking-tight">
          Lumi Admin
        </Link>
        <DesktopNav />
        <div className="ml-auto flex items-center gap-1">
          <ThemeMenu />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
