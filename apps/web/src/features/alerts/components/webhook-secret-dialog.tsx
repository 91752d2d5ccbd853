import { ALERT_WEBHOOK_HEADERS, type ContactPointCreated } from '@lumi/contract';
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';

/** A new webhook's signing secret, shown this once with a copy button. */
export function WebhookSecretDialog({
  created,
  onClose,
}: {
  created: ContactPointCreated;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret ?? '');
      setCopied(true);
      toast.success('Secret copied');
    } catch {
      toast.error('Copying failed: select the secret and copy it yourself');
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Signing secret of ${created.name}`}
      description={`Lumi signs each POST with HMAC-SHA256 of "timestamp.body" in the ${ALERT_WEBHOOK_HEADERS.signature} header.`}
    >
      <div className="space-y-4">
        <Alert variant="info" title="Copy it now: you will not see it again">
          Store it where your receiver checks the signature. To get a new one, delete the contact point and
          create it again.
        </Alert>
        <div className="flex items-center gap-2">
          <code
            aria-label="Signing secret"
            className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all select-all"
          >
            {created.secret}
          </code>
          <Button variant="secondary" onClick={() => void copy()}>
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </div>
    </Dialog>
  );
}
