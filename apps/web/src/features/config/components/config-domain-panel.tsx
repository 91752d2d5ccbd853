import type { ConfigDomain, ConfigItem } from '@lumi/contract';
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { AddButton } from '@/components/ui/add-button';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useConfigItems } from '../api/list-config-items';
import { useUpdateConfigItem } from '../api/update-config-item';
import { useBulkActive } from '../hooks/use-bulk-active';
import { useConfigParams } from '../hooks/use-config-params';
import { newItemContentMode } from '../lib/content';
import { filterItems, tagsOf } from '../lib/filter-items';
import { BulkToolbar } from './bulk-toolbar';
import { ConfigFiltersBar } from './config-filters-bar';
import { ConfigItemDialog } from './config-item-dialog';
import { ConfigItemViewDialog } from './config-item-view-dialog';
import { ConfigItemsTable } from './config-items-table';
import { ConfigTransferActions } from './config-transfer-actions';
import { DeleteConfigItemDialog } from './delete-config-item-dialog';
import { RevisionHistoryDialog } from './revision-history-dialog';

type OpenDialog =
  | { kind: 'create' }
  | { kind: 'view'; item: ConfigItem }
  | { kind: 'edit'; item: ConfigItem }
  | { kind: 'delete'; item: ConfigItem }
  | null;

interface ConfigDomainPanelProps {
  domain: ConfigDomain;
  /**
   * Add, edit, delete, the Actions column and the active switch need config:write; without it an item
   * opens read-only from its name, with its history.
   */
  canWrite: boolean;
}

/** One tab: the domain's items with their filters, and the dialogs that change them. */
export function ConfigDomainPanel({ domain, canWrite }: ConfigDomainPanelProps) {
  const items = useConfigItems(domain);
  const updateItem = useUpdateConfigItem();
  const { filters, setFilter, history, revision, setHistory } = useConfigParams();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  // Spec section 8: a failed delete (or toggle) is reported in a banner the operator can dismiss.
  const [failure, setFailure] = useState<string | null>(null);
  const all = items.data ?? [];
  const shown = filterItems(all, filters);
  const bulk = useBulkActive(domain);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  // Only what the table shows is acted on: an item deleted meanwhile or hidden by a filter drops out.
  const selectedItems = shown.filter((item) => selected.has(item.id));

  const select = (ids: number[], checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (checked) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  async function setActiveOfSelected(isActive: boolean) {
    setFailure(null);
    // What failed stays selected, so it can be tried again after a look at the message.
    setSelected(new Set(await bulk.run(selectedItems, isActive)));
  }
  // The history sits in the URL, so a change marker's link opens it; an id no longer listed opens nothing.
  const historyItem = history === null ? undefined : all.find((item) => item.id === history);

  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };

  function toggleActive(item: ConfigItem, isActive: boolean) {
    setFailure(null);
    const { name, description, content, tags, priority, version } = item;
    updateItem.mutate(
      {
        domain,
        id: item.id,
        input: { name, description, content, tags, priority, is_active: isActive, version },
      },
      { onError: (error) => setFailure(errorMessage(error, 'Failed to update configuration')) },
    );
  }

  if (items.isError) {
    return (
      <Alert variant="error" title={`Failed to load ${domain}`}>
        <p>{errorMessage(items.error, 'Failed to fetch configuration')}</p>
        {/* Spec section 2: Retry reloads the page. */}
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden />
          Retry
        </Button>
      </Alert>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ConfigFiltersBar filters={filters} tags={tagsOf(all)} onChange={setFilter} />
        <div className="flex flex-wrap gap-2">
          <ConfigTransferActions domain={domain} items={all} canWrite={canWrite} onFailure={setFailure} />
          {canWrite && <AddButton onClick={() => setDialog({ kind: 'create' })}>Add Item</AddButton>}
        </div>
      </div>
      {canWrite && (
        <BulkToolbar
          selected={selectedItems.length}
          progress={bulk.progress}
          failures={bulk.failures}
          onEnable={() => void setActiveOfSelected(true)}
          onDisable={() => void setActiveOfSelected(false)}
          onClear={() => setSelected(new Set())}
          onDismissFailures={bulk.clearFailures}
        />
      )}
      {failure && (
        <Alert variant="error" onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <ConfigItemsTable
        domain={domain}
        items={shown}
        isEmptyDomain={all.length === 0}
        isLoading={items.isPending}
        canWrite={canWrite}
        togglingId={updateItem.isPending ? updateItem.variables.id : undefined}
        onToggle={toggleActive}
        onView={(item) => setDialog({ kind: 'view', item })}
        onEdit={(item) => setDialog({ kind: 'edit', item })}
        onHistory={(item) => setHistory(item.id)}
        onDelete={(item) => setDialog({ kind: 'delete', item })}
        selected={selected}
        onSelect={select}
      />

      {dialog?.kind === 'create' && (
        <ConfigItemDialog
          open
          onOpenChange={closeDialog}
          domain={domain}
          newItemMode={newItemContentMode(all)}
        />
      )}
      {dialog?.kind === 'view' && <ConfigItemViewDialog open onOpenChange={closeDialog} item={dialog.item} />}
      {dialog?.kind === 'edit' && (
        <ConfigItemDialog open onOpenChange={closeDialog} domain={domain} item={dialog.item} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteConfigItemDialog
          open
          onOpenChange={closeDialog}
          item={dialog.item}
          onFailure={(message) => {
            setDialog(null);
            setFailure(message);
          }}
        />
      )}
      {historyItem && (
        <RevisionHistoryDialog
          open
          onOpenChange={(open) => {
            if (!open) setHistory(null);
          }}
          item={historyItem}
          initialRevision={revision}
          canRestore={canWrite}
        />
      )}
    </div>
  );
}
