import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useAuthStore } from '@/lib/auth-store';
import { NAV_ITEMS } from './nav-items';
import { NavLinks } from './nav-links';

/**
 * The small-screen menu: a sheet listing every item (spec section 2: the mobile list shows all items; the
 * screens check permissions themselves) with the signed-in user's username and e-mail.
 */
export function MobileMenu() {
  const [open, setOpen] = useState(false);
  const user = useAuthStore((state) => state.user);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" size="icon" className="xl:hidden" aria-label="Open menu">
          <Menu aria-hidden />
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50 xl:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r bg-card text-card-foreground shadow-xl xl:hidden"
        >
          <div className="flex h-14 items-center justify-between border-b px-4">
            <Dialog.Title className="text-base font-bold">Lumi Admin</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <X aria-hidden />
              </Button>
            </Dialog.Close>
          </div>
          {user && (
            <div className="border-b px-4 py-3 text-sm">
              <p className="truncate font-semibold">{user.username}</p>
              <p className="truncate text-muted-foreground">{user.email}</p>
            </div>
          )}
          <nav aria-label="Main" className="flex-1 overflow-y-auto p-2">
            <NavLinks items={NAV_ITEMS} className="space-y-1" onNavigate={() => setOpen(false)} />
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
