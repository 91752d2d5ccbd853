import { cn } from '@/lib/cn';

/** Styling for a navigation link; the active one is marked by weight and background, not colour alone. */
export function navLinkClass({ isActive }: { isActive: boolean }, className?: string): string {
  return cn(
    'flex items-center gap-2 rounded-md px-3 py-2 text-sm transition-colors',
    isActive
      ? 'bg-accent font-semibold text-accent-foreground'
      : 'font-medium text-muted-foreground hover:bg-muted hover:text-foreground',
    className,
  );
}
