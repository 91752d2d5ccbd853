import { NavLinks } from './nav-links';
import { usePermittedNavItems } from './nav-items';

/** The navigation of the top bar on wide screens. */
export function DesktopNav() {
  const items = usePermittedNavItems();
  return (
    <nav aria-label="Main" className="hidden md:block">
      <NavLinks items={items} className="flex items-center gap-1" />
    </nav>
  );
}
