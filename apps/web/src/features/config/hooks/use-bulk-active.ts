import type { ConfigDomain, ConfigItem } from '@lumi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { errorMessage } from '@/lib/api-client';
import { configKeys } from '../api/list-config-items';
import { updateConfigItem } from '../api/update-config-item';

export interface BulkFailure {
  name: string;
  message: string;
}

/**
 * Enables or disables several items. The API has no bulk endpoint, so each item is one PUT with the
 * version the list showed, one after another: an item changed meanwhile fails alone (409) and the rest
 * still go through.
 */
export function useBulkActive(domain: ConfigDomain) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failures, setFailures] = useState<BulkFailure[]>([]);

  async function run(items: ConfigItem[], isActive: boolean): Promise<number[]> {
    const todo = items.filter((item) => item.is_active !== isActive);
    const failed: BulkFailure[] = [];
    const failedIds: number[] = [];
    setFailures([]);
    setProgress({ done: 0, total: todo.length });
    for (const [index, item] of todo.entries()) {
      const { id, name, description, content, tags, priority, version } = item;
      try {
        await updateConfigItem({
          domain,
          id,
          input: { name, description, content, tags, priority, version, is_active: isActive },
        });
      } catch (error) {
        failed.push({ name, message: errorMessage(error, 'Failed to update') });
        failedIds.push(id);
      }
      setProgress({ done: index + 1, total: todo.length });
    }
    setProgress(null);
    setFailures(failed);
    await queryClient.invalidateQueries({ queryKey: configKeys.domain(domain) });
    const changed = todo.length - failed.length;
    const verb = isActive ? 'Enabled' : 'Disabled';
    if (changed > 0 || todo.length === 0)
      toast.success(`${verb} ${changed} ${changed === 1 ? 'item' : 'items'}`);
    return failedIds;
  }

  return { run, progress, failures, clearFailures: () => setFailures([]) };
}
