import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button, type ButtonProps } from './button';

interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** The text put on the clipboard. */
  text: string;
  /** The button's words ("Copy secret"). */
  label: string;
}

/**
 * Copies `text` to the clipboard and says so in a live region ("Copied", or that the clipboard is not
 * available, so the user knows to select the text instead).
 */
export function CopyButton({ text, label, variant = 'secondary', size = 'sm', ...props }: CopyButtonProps) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant={variant} size={size} onClick={() => void copy()} {...props}>
        {outcome === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
        {label}
      </Button>
      <span role="status" className="text-xs text-muted-foreground">
        {outcome === 'copied' && 'Copied'}
        {outcome === 'failed' && 'Could not copy: select the text and copy it instead'}
      </span>
    </span>
  );
}
