import type { ApiKey } from '@lumi/contract';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { RetryAlert } from '@/components/ui/load-error';
import { SkeletonList } from '@/components/ui/skeleton';
import { useHasPermission } from '@/lib/permissions';
import { useApiKeys } from '../api/list-api-keys';
import { ApiKeysTable } from './api-keys-table';
import { ContentCaptureDialog } from './content-capture-dialog';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { IgnoredSpansDialog } from './ignored-spans-dialog';
import { RevokeApiKeyDialog } from './revoke-api-key-dialog';

type OpenDialog = { kind: 'create' } | { kind: 'revoke' | 'ignored' | 'content'; apiKey: ApiKey } | null;

/**
 * API keys for the bot (docs/bot-developers/ingestion.md, "API keys"), for admin:keys:write only; renders
 * nothing for anyone else.
 */
export function ApiKeysSection({ className }: { className?: string }) {
  const canManage = useHasPermission('admin:keys:write');
  const keys = useApiKeys(canManage);
  const [dialog, setDialog] = useState<OpenDialog>(null);

  if (!canManage) return null;

  const close = (open: boolean) => {
    if (!open) setDialog(null);
  };

  return (
    <Card aria-labelledby="api-keys-heading" className={className}>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle id="api-keys-heading">API Keys</CardTitle>
            <p className="mt-1 text-sm text-muted-foreground">
              Keys let the bot report telemetry and read what its scopes allow. A key is shown once, when it
              is created.
            </p>
          </div>
          <Button variant="secondary" onClick={() => setDialog({ kind: 'create' })}>
            <KeyRound aria-hidden />
            Create API Key
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {keys.isPending && <SkeletonList label="Loading API keys" rows={3} rowClassName="h-10" />}
        {keys.isError && <RetryAlert onRetry={() => void keys.refetch()}>Failed to load API keys</RetryAlert>}
        {keys.data?.length === 0 && <EmptyState>No API keys yet</EmptyState>}
        {keys.data && keys.data.length > 0 && (
          <ApiKeysTable
            keys={keys.data}
            onRevoke={(apiKey) => setDialog({ kind: 'revoke', apiKey })}
            onShowIgnored={(apiKey) => setDialog({ kind: 'ignored', apiKey })}
            onEditContent={(apiKey) => setDialog({ kind: 'content', apiKey })}
          />
        )}
      </CardContent>
      {dialog?.kind === 'create' && <CreateApiKeyDialog onOpenChange={close} />}
      {dialog?.kind === 'revoke' && <RevokeApiKeyDialog apiKey={dialog.apiKey} onOpenChange={close} />}
      {dialog?.kind === 'ignored' && <IgnoredSpansDialog apiKey={dialog.apiKey} onOpenChange={close} />}
      {dialog?.kind === 'content' && <ContentCaptureDialog apiKey={dialog.apiKey} onOpenChange={close} />}
    </Card>
  );
}
