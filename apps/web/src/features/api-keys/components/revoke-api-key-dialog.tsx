import type { ApiKey } from '@lumi/contract';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useRevokeApiKey } from '../api/revoke-api-key';

/** Asks before revoking: whatever uses the key loses access at once. */
export function RevokeApiKeyDialog({
  apiKey,
  onOpenChange,
}: {
  apiKey: ApiKey;
  onOpenChange: (open: boolean) => void;
}) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title="Revoke API Key"
      description={`Revoke ${apiKey.name} (${apiKey.prefix}…)? Anything using this key loses access at once. This cannot be undone.`}
      confirmLabel="Revoke"
      pendingLabel="Revoking..."
      pending={revoke.isPending}
      error={revoke.error ? errorMessage(revoke.error, 'Failed to revoke API key') : null}
      onConfirm={() => revoke.mutate(apiKey.id, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
