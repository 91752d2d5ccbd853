import { NavLink } from 'react-router';
import { navLinkClass } from './nav-link-class';
import type { NavItem } from './nav-items';

/**
 * The navigation's links, for the desktop bar and the mobile menu alike; NavLink marks the current screen
 * with aria-current.
 */
export function NavLinks({
  items,
  className,
  icons = true,
  onNavigate,
}: {
  items: readonly NavItem[];
  className: string;
  /** Each link's icon before its name. */
  icons?: boolean;
  /** After a link is followed, e.g. closing the mobile menu. */
  onNavigate?: () => void;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} onClick={onNavigate} className={(state) => navLinkClass(state)}>
            {icons && <item.icon aria-hidden className="size-4" />}
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
