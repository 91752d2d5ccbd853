import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

const fieldClass =
  'h-9 w-full rounded-md border border-input bg-card px-3 text-sm text-foreground placeholder:text-muted-foreground ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive';

/** Text controls grey out when read-only. A select always matches :read-only, so it does not get this. */
export const inputClass = `${fieldClass} read-only:bg-muted`;

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(inputClass, className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(fieldClass, 'pr-8', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(inputClass, 'h-auto min-h-20 py-2', className)} {...props} />;
}
