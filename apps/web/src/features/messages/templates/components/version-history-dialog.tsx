import type { Template, TemplateVersion } from '@lumi/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useTemplateVersions } from '../api/list-template-versions';
import { useRestoreTemplateVersion } from '../api/restore-template-version';
import { SETTING_LABELS } from '../lib/version-diff';
import { VersionDiff } from './version-diff';

interface VersionHistoryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  template: Template;
  onRestored: (template: Template) => void;
  /** The version to compare first (a change marker's link names the one its change made). */
  initialVersion?: number | null;
}

const FIELD_LABELS = new Map<string, string>([['template_content', 'Content'], ...SETTING_LABELS]);

function describe(version: TemplateVersion): string {
  if (version.action === 'created') return 'Created';
  if (version.action === 'restored') return `Restored from version ${version.restored_from}`;
  if (version.changes.length === 0) return 'Saved without changes';
  return `Changed ${version.changes.map((field) => FIELD_LABELS.get(field) ?? field).join(', ')}`;
}

/** Every version of a template, what differs from the current one, and a restore (as a new version). */
export function VersionHistoryDialog({
  open,
  onOpenChange,
  template,
  onRestored,
  initialVersion = null,
}: VersionHistoryDialogProps) {
  const canWrite = useHasPermission('templates:write');
  const versions = useTemplateVersions(template.id);
  const restore = useRestoreTemplateVersion();
  const [chosen, setChosen] = useState<number | null>(initialVersion);
  const [confirming, setConfirming] = useState(false);
  const list = versions.data ?? [];
  // The version before the current one is the likeliest question: "what did my last save change?"
  const selected = list.find((v) => v.version === chosen) ?? list[1] ?? list[0];

  const confirmRestore = () => {
    if (!selected) return;
    restore.mutate(
      { templateId: template.id, version: selected.version, currentVersion: template.version },
      { onSuccess: onRestored },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Version History"
      className="sm:max-w-2xl lg:max-w-4xl"
    >
      {versions.isPending ? (
        <Skeleton className="h-48 w-full" />
      ) : versions.isError ? (
        <Alert variant="error">Failed to load versions</Alert>
      ) : (
        <div className="grid gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
          <ul aria-label="Versions" className="max-h-96 space-y-1 overflow-y-auto md:max-h-[28rem]">
            {list.map((version) => (
              <li key={version.version}>
                <button
                  type="button"
                  onClick={() => setChosen(version.version)}
                  aria-current={version === selected ? 'true' : undefined}
                  className={cn(
                    'w-full rounded-md border px-3 py-2 text-left text-xs hover:bg-muted',
                    version === selected
                      ? 'border-primary bg-accent text-accent-foreground'
                      : 'border-transparent',
                  )}
                >
                  <span className="flex items-center gap-2 text-sm font-medium">
                    Version {version.version}
                    {version.version === template.version && <Badge variant="primary">Current</Badge>}
                  </span>
                  <span className="block text-muted-foreground">
                    {formatDateTime(version.created_at)}
                    {version.updated_by && ` · ${version.updated_by}`}
                  </span>
                  <span className="block break-words text-muted-foreground">{describe(version)}</span>
                </button>
              </li>
            ))}
          </ul>
          {selected && (
            <div className="min-w-0 space-y-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold">
                  {selected.version === template.version
                    ? `Version ${selected.version} is the current version`
                    : `Version ${selected.version} compared with the current version ${template.version}`}
                </h3>
                {canWrite && selected.version !== template.version && (
                  <Button size="sm" onClick={() => setConfirming(true)}>
                    Restore version {selected.version}
                  </Button>
                )}
              </div>
              <VersionDiff
                before={selected.snapshot}
                after={template}
                beforeLabel={`Version ${selected.version}`}
                afterLabel="Current"
              />
            </div>
          )}
        </div>
      )}
      {selected && (
        <ConfirmDialog
          open={confirming}
          onOpenChange={(next) => {
            setConfirming(next);
            if (!next) restore.reset();
          }}
          title={`Restore version ${selected.version}?`}
          description={`Its content and settings are saved as version ${template.version + 1}. Changes in the editor that are not saved are discarded.`}
          confirmLabel="Restore"
          pendingLabel="Restoring..."
          pending={restore.isPending}
          onConfirm={confirmRestore}
          error={restore.isError ? errorMessage(restore.error, 'Failed to restore version') : null}
        />
      )}
    </Dialog>
  );
}
