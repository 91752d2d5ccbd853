import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Message = Parameters<typeof sonnerToast.success>[0];

/** A toast of `kind`, shown once sonner has loaded (it is there by the time anyone saves). */
function later(kind: 'success' | 'error') {
  return (message: Message, data?: ExternalToast): void => {
    import('sonner').then(
      ({ toast }) => toast[kind](message, data),
      // Its code could not load (the network is down, or a deploy replaced it): the console at least.
      () => console.error(typeof message === 'string' ? message : 'A notification could not be shown'),
    );
  };
}

/**
 * sonner's `toast` for the screens, loading sonner on first use: the Toaster loads it once the first view
 * has painted (app/app.tsx), so a screen that can show a toast does not bring it into that view
 * (docs/benchmarks.md, "The first signed-in load").
 */
export const toast = { success: later('success'), error: later('error') };
