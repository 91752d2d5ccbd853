import type { ConfigDomain, ConfigItem } from '@lumi/contract';
import { Download, Upload } from 'lucide-react';
import { useRef, useState, type ChangeEvent } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { ApiError, errorMessage } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { exportConfig } from '../api/export-config';
import { useImportConfig } from '../api/import-config';
import { DOMAIN_LABELS } from '../lib/domains';
import { describeImportErrors, importPlan, parseImportFile, type ItemProblem } from '../lib/import-file';

interface ConfigTransferActionsProps {
  domain: ConfigDomain;
  /** The domain's items now, to say before an import which items it creates and which it updates. */
  items: ConfigItem[];
  /** Import needs config:write; export needs only config:read, as the API does. */
  canWrite: boolean;
  /** Shows why an export or a file failed; null takes the message down once a new try starts. */
  onFailure: (message: string | null) => void;
}

type PendingImport = { fileName: string; items: unknown[]; problems: ItemProblem[] };

/** FileReader rather than Blob.text(), which older Safari and jsdom lack. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

function plural(count: number, word: string) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Export downloads the section as JSON; Import reads such a file, says what will change, then sends it. */
export function ConfigTransferActions({ domain, items, canWrite, onFailure }: ConfigTransferActionsProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);
  const [pending, setPending] = useState<PendingImport | null>(null);
  const importItems = useImportConfig();
  const label = DOMAIN_LABELS[domain];

  async function handleExport() {
    onFailure(null);
    setExporting(true);
    try {
      const exported = await exportConfig(domain);
      const blob = new Blob([`${JSON.stringify(exported, null, 2)}\n`], { type: 'application/json' });
      saveFile(`lumi-${domain}.json`, blob);
    } catch (error) {
      onFailure(errorMessage(error, `Failed to export ${label.toLowerCase()}`));
    } finally {
      setExporting(false);
    }
  }

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be picked again after it was fixed.
    event.target.value = '';
    if (!file) return;
    // A new file is a new try: the last one's message no longer holds.
    onFailure(null);
    let text: string;
    try {
      text = await readText(file);
    } catch {
      onFailure(`${file.name}: the file could not be read.`);
      return;
    }
    const parsed = parseImportFile(text);
    if (!parsed.ok) {
      onFailure(`${file.name}: ${parsed.message}`);
      return;
    }
    importItems.reset();
    setPending({ fileName: file.name, items: parsed.items, problems: [] });
  }

  function confirmImport() {
    if (!pending) return;
    importItems.mutate(
      { domain, items: pending.items },
      {
        onSuccess: ({ created, updated }) => {
          setPending(null);
          toast.success(`Imported into ${label}: ${created} created, ${updated} updated`);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errors.length > 0)
            setPending({ ...pending, problems: describeImportErrors(error.errors, pending.items) });
        },
      },
    );
  }

  const plan = pending && importPlan(pending.items, items);
  const failedWithoutList =
    importItems.isError && !(importItems.error instanceof ApiError && importItems.error.errors.length > 0);

  return (
    <>
      <Button variant="secondary" disabled={exporting} onClick={() => void handleExport()}>
        <Download aria-hidden />
        {exporting ? 'Exporting...' : 'Export'}
      </Button>
      {canWrite && (
        <>
          <Button variant="secondary" onClick={() => fileInput.current?.click()}>
            <Upload aria-hidden />
            Import
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            tabIndex={-1}
            aria-label={`Import ${label} from a JSON file`}
            onChange={(event) => void handleFile(event)}
          />
        </>
      )}
      {pending && plan && (
        <Dialog
          open
          onOpenChange={(open) => {
            if (!open && !importItems.isPending) setPending(null);
          }}
          title={`Import ${label}`}
          description={`From ${pending.fileName}`}
        >
          <div className="space-y-3 text-sm">
            <p>
              {plural(pending.items.length, 'item')}: {plural(plan.created, 'new item')} and{' '}
              {plural(plan.updated, 'existing item')} updated with a new revision (matched by name). Items not
              in the file stay as they are.
            </p>
            <p className="text-muted-foreground">
              Every item is checked first: if any is invalid, nothing is changed.
            </p>
            {pending.problems.length > 0 && (
              <Alert variant="error" title="Nothing was imported. Fix these in the file and import it again:">
                <ul className="mt-1 list-disc space-y-1 pl-5">
                  {pending.problems.map((problem, index) => (
                    <li key={index}>
                      <span className="font-medium">{problem.item}</span>
                      {problem.field && <code className="mx-1 text-xs">{problem.field}</code>}:{' '}
                      {problem.message}
                    </li>
                  ))}
                </ul>
              </Alert>
            )}
            {failedWithoutList && (
              <Alert variant="error">{errorMessage(importItems.error, 'Failed to import')}</Alert>
            )}
          </div>
          <DialogFooter className="mt-4">
            <Button variant="secondary" disabled={importItems.isPending} onClick={() => setPending(null)}>
              Cancel
            </Button>
            {pending.problems.length === 0 && (
              <Button disabled={importItems.isPending} onClick={confirmImport}>
                {importItems.isPending ? 'Importing...' : `Import ${plural(pending.items.length, 'item')}`}
              </Button>
            )}
          </DialogFooter>
        </Dialog>
      )}
    </>
  );
}
