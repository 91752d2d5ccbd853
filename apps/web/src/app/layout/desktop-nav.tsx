import { NavLink } from 'react-router';
import { navLinkClass } from './nav-link-class';
import { usePermittedNavItems } from './nav-items';

/** The navigation of the top bar on wide screens; NavLink marks the current screen with aria-current. */
export function DesktopNav() {
  const items = usePermittedNavItems();
  return (
    <nav aria-label="Main" className="hidden md:block">
      <ul className="flex items-center gap-1">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className={(state) => navLinkClass(state)}>
              <item.icon aria-hidden className="size-4" />
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
