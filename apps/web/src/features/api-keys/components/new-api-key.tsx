import type { ApiKeyCreated } from '@lumi/contract';
import { Check, Copy } from 'lucide-react';
import { useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

type CopyState = 'idle' | 'copied' | 'failed';

/** The new key, shown this once with a copy button; without clipboard access the key is selected instead. */
export function NewApiKey({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');

  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopy('copied');
    } catch {
      setCopy('failed');
      input.current?.select();
    }
  };

  return (
    <div className="space-y-4">
      <Alert variant="info" title="Copy this key now">
        It is shown only this once. Lumi Admin keeps only a hash of it, so it cannot be shown again.
      </Alert>
      <div className="flex items-end gap-2">
        <Field label={`API key for ${created.name}`} className="min-w-0 flex-1">
          <Input
            ref={input}
            readOnly
            value={created.key}
            onFocus={(event) => event.target.select()}
            className="font-mono text-xs"
          />
        </Field>
        <Button variant="secondary" onClick={() => void copyKey()}>
          {copy === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="min-h-5 text-sm text-muted-foreground">
        {copy === 'copied' && 'The key is on the clipboard.'}
        {copy === 'failed' &&
          'Copying is not available here: the key is selected, press Ctrl+C (⌘C on a Mac) to copy it.'}
      </p>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
