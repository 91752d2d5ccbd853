import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

const variants = {
  neutral: 'bg-muted text-foreground',
  primary: 'bg-accent text-accent-foreground',
  success: 'bg-success/15 text-success',
  warning: 'bg-warning/15 text-warning',
  // A lighter tint than the others: red text on a /15 tint falls below 4.5:1 in the light theme.
  destructive: 'bg-destructive/8 text-destructive',
} as const;

export function Badge({
  variant = 'neutral',
  className,
  ...props
}: ComponentProps<'span'> & { variant?: keyof typeof variants }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
