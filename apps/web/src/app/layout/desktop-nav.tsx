import { NavLinks } from './nav-links';
import { usePermittedNavItems } from './nav-items';

/**
 * The navigation of the top bar from 1280 px up, its links in words alone: with every screen's item, the
 * title and the longest username's menu, icons would not fit a 1,280 px bar. Narrower, the menu button
 * opens the list (mobile-menu.tsx).
 */
export function DesktopNav() {
  const items = usePermittedNavItems();
  return (
    <nav aria-label="Main" className="hidden xl:block">
      <NavLinks items={items} icons={false} className="flex items-center gap-1" />
    </nav>
  );
}
