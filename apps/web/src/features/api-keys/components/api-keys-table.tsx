import type { ApiKey, ApiKeyStatus } from '@lumi/contract';
import { Ban, CircleCheck, Clock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
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

const COLUMNS: ReadonlyArray<ResponsiveColumn<ApiKey>> = [
  { header: 'Name', primary: true, className: 'font-medium', cell: (key) => key.name },
  {
    header: 'Scopes',
    cell: (key) => (
      <span className="flex flex-wrap justify-end gap-1 sm:justify-start">
        {key.scopes.map((scope) => (
          <Badge key={scope} className="font-mono">
            {scope}
          </Badge>
        ))}
      </span>
    ),
  },
  { header: 'Prefix', className: 'font-mono text-xs whitespace-nowrap', cell: (key) => `${key.prefix}…` },
  {
    header: 'Created',
    className: 'text-xs whitespace-nowrap',
    cell: (key) => (
      <span>
        {formatDateTime(key.created_at)}
        {key.created_by && <span className="block text-muted-foreground">by {key.created_by}</span>}
      </span>
    ),
  },
  {
    header: 'Last used',
    className: 'text-xs whitespace-nowrap',
    cell: (key) => formatDateTime(key.last_used_at),
  },
  {
    header: 'Expires',
    className: 'text-xs whitespace-nowrap',
    cell: (key) => (key.expires_at ? formatDateTime(key.expires_at) : 'Never'),
  },
  {
    header: 'Content',
    cell: (key) =>
      key.capture_content ? (
        <Badge variant="warning">
          Kept
          {key.content_redactions.length > 0 && `, ${key.content_redactions.length} redacted`}
        </Badge>
      ) : (
        <span className="text-xs text-muted-foreground">Not kept</span>
      ),
  },
  { header: 'Status', cell: (key) => <StatusCell apiKey={key} /> },
];

/**
 * The keys with their scopes, prefix, dates and status; revoked keys stay listed. On a phone each key is a
 * card, so Revoke never hides off-screen.
 */
export function ApiKeysTable({
  keys,
  onRevoke,
  onShowIgnored,
  onEditContent,
}: {
  keys: ApiKey[];
  onRevoke: (key: ApiKey) => void;
  onShowIgnored: (key: ApiKey) => void;
  onEditContent: (key: ApiKey) => void;
}) {
  const columns: ReadonlyArray<ResponsiveColumn<ApiKey>> = [
    ...COLUMNS,
    {
      header: 'Actions',
      headerHidden: true,
      below: true,
      className: 'text-right sm:whitespace-nowrap',
      cell: (key) => (
        <>
          {key.scopes.includes('ingest:write') && (
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Ignored spans of ${key.name}`}
              onClick={() => onShowIgnored(key)}
            >
              Ignored Spans
            </Button>
          )}
          {key.status !== 'revoked' && key.scopes.includes('ingest:write') && (
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Content settings of ${key.name}`}
              onClick={() => onEditContent(key)}
            >
              Content
            </Button>
          )}
          {key.status !== 'revoked' && (
            <Button variant="ghost" size="sm" aria-label={`Revoke ${key.name}`} onClick={() => onRevoke(key)}>
              Revoke
            </Button>
          )}
        </>
      ),
    },
  ];
  return <ResponsiveTable aria-label="API keys" columns={columns} rows={keys} rowKey={(key) => key.id} />;
}
