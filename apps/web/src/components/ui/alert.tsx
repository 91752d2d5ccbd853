import { CircleAlert, CircleCheck, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

interface AlertProps {
  variant?: 'error' | 'success' | 'info';
  title?: ReactNode;
  children?: ReactNode;
  onDismiss?: () => void;
  className?: string;
}

/** A banner with an icon and words, so colour is never the only signal. */
export function Alert({ variant = 'info', title, children, onDismiss, className }: AlertProps) {
  const Icon = variant === 'success' ? CircleCheck : CircleAlert;
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn(
        'flex items-start gap-3 rounded-md border p-3 text-sm',
        variant === 'error' && 'border-destructive/40 bg-destructive/10 text-destructive',
        variant === 'success' && 'border-success/40 bg-success/10 text-success',
        variant === 'info' && 'bg-muted text-foreground',
        className,
      )}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className={cn(title && 'mt-0.5')}>{children}</div>}
      </div>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          className="rounded p-0.5 hover:bg-black/10"
          aria-label="Dismiss"
        >
          <X aria-hidden className="size-4" />
        </button>
      )}
    </div>
  );
}
