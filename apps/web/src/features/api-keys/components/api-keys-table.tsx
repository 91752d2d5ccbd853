import type { ApiKey, ApiKeyStatus } from '@lumi/contract';
import { Ban, CircleCheck, Clock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, Td, Th } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';

const STATUS = {
  active: { variant: 'success', icon: CircleCheck, text: 'Active' },
  expired: { variant: 'warning', icon: Clock, text: 'Expired' },
  revoked: { variant: 'destructive', icon: Ban, text: 'Revoked' },
} as const satisfies Record<ApiKeyStatus, unknown>;

function StatusCell({ apiKey }: { apiKey: ApiKey }) {
  const { variant, icon: Icon, text } = STATUS[apiKey.status];
  return (
    <div className="space-y-0.5">
      <Badge variant={variant}>
        <Icon aria-hidden className="size-3.5" />
        {text}
      </Badge>
      {apiKey.revoked_at && (
        <p className="text-xs text-muted-foreground">{formatDateTime(apiKey.revoked_at)}</p>
      )}
    </div>
  );
}

/** The keys with their scopes, prefix, dates and status; revoked keys stay listed. */
export function ApiKeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <Table aria-label="API keys">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>Scopes</Th>
          <Th>Prefix</Th>
          <Th>Created</Th>
          <Th>Last used</Th>
          <Th>Expires</Th>
          <Th>Status</Th>
          <Th className="text-right">Actions</Th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id}>
            <Td className="font-medium break-all">{key.name}</Td>
            <Td>
              <div className="flex flex-wrap gap-1">
                {key.scopes.map((scope) => (
                  <Badge key={scope} className="font-mono">
                    {scope}
                  </Badge>
                ))}
              </div>
            </Td>
            <Td className="font-mono text-xs whitespace-nowrap">{key.prefix}…</Td>
            <Td className="text-xs whitespace-nowrap">
              {formatDateTime(key.created_at)}
              {key.created_by && <span className="block text-muted-foreground">by {key.created_by}</span>}
            </Td>
            <Td className="text-xs whitespace-nowrap">{formatDateTime(key.last_used_at)}</Td>
            <Td className="text-xs whitespace-nowrap">
              {key.expires_at ? formatDateTime(key.expires_at) : 'Never'}
            </Td>
            <Td>
              <StatusCell apiKey={key} />
            </Td>
            <Td className="text-right">
              {key.status !== 'revoked' && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Revoke ${key.name}`}
                  onClick={() => onRevoke(key)}
                >
                  Revoke
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
