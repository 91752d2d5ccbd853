import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { CopyButton } from '@/components/ui/copy-button';
import { saveFile } from '@/lib/download';

const FILE_NAME = 'lumi-admin-recovery-codes.txt';

/**
 * The ten recovery codes, shown this once (the server keeps only their hashes): Copy, Download, and Done
 * only after the user says they saved them.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const titleId = useId();
  const text = `${codes.join('\n')}\n`;
  return (
    <div className="space-y-4" role="group" aria-labelledby={titleId}>
      <Alert variant="success" title="Two-factor sign-in is on">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator
        app. They are shown only now.
      </Alert>
      <h3 id={titleId} className="text-sm font-semibold">
        Recovery codes
      </h3>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-md border bg-muted/40 p-3 font-mono text-sm min-[360px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <CopyButton text={text} label="Copy codes" />
        <Button
          variant="secondary"
          size="sm"
          onClick={() => saveFile(FILE_NAME, new Blob([text], { type: 'text/plain;charset=utf-8' }))}
        >
          <Download aria-hidden />
          Download
        </Button>
      </div>
      <Checkbox checked={saved} onCheckedChange={setSaved} label="I have saved my recovery codes" />
      <Button onClick={onDone} disabled={!saved}>
        Done
      </Button>
    </div>
  );
}
