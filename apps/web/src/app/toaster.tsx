import { Toaster as Sonner } from 'sonner';
import { useTheme } from '@/lib/theme-store';

/**
 * The one place toasts appear (sonner): short confirmations of saves and deletes. Its container is a
 * polite live region, so screen readers read each toast without moving focus; Alt+T reaches them by
 * keyboard. Plain colours, not sonner's rich ones, whose light success green fails WCAG contrast; the icon
 * tells the kind. Bottom right on a desktop; on a phone across the bottom, where no primary action sits once
 * the dialog that was saved has closed.
 */
export function Toaster() {
  const { resolved } = useTheme();
  return (
    <Sonner
      theme={resolved}
      position="bottom-right"
      closeButton
      containerAriaLabel="Notifications"
      toastOptions={{ closeButtonAriaLabel: 'Dismiss notification' }}
    />
  );
}
