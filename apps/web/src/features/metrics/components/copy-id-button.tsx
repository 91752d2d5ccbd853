import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';

type CopyState = 'idle' | 'copied' | 'failed';

/** How long "Copied" stays before the button reads "Copy" again. */
const CONFIRMATION_MS = 2_000;

/**
 * Copies a Telegram id to the clipboard: a button named for what it copies, then "Copied" beside it and
 * in a live region, so a screen reader hears it too; where the clipboard is not available, it says so.
 */
export function CopyIdButton({ value, name }: { value: string; name: string }) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className="inline-flex items-center gap-1.5">
      <Button
        variant="ghost"
        size="sm"
        className="h-7 px-1.5"
        aria-label={`Copy ${name} ${value}`}
        onClick={() => void copy()}
      >
        {state === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
      </Button>
      <span role="status" className="text-xs text-muted-foreground">
        {state === 'copied' && 'Copied'}
        {state === 'failed' && 'Copy not available'}
      </span>
    </span>
  );
}
