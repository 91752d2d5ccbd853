import type { Template } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteTemplate } from '../api/delete-template';

interface DeleteTemplateDialogProps {
  template: Template;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}

/**
 * Asks before deleting a template. The version shown is sent, so a save someone made meanwhile is not
 * deleted unseen (409, shown here); the template's versions stay on the server for the audit.
 */
export function DeleteTemplateDialog({ template, onOpenChange, onDeleted }: DeleteTemplateDialogProps) {
  const deleteTemplate = useDeleteTemplate();
  const [error, setError] = useState<string | null>(null);
  const name = template.template_name;
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title={`Delete template '${name}'?`}
      description="It disappears from the list and the bot can no longer render it. Its version history stays in the audit trail."
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={deleteTemplate.isPending}
      error={error}
      onConfirm={() => {
        setError(null);
        deleteTemplate.mutate(
          { id: template.id, version: template.version },
          {
            onSuccess: () => {
              toast.success(`Template '${name}' deleted`);
              onDeleted();
            },
            onError: (failure) => setError(errorMessage(failure, 'Failed to delete template')),
          },
        );
      }}
    />
  );
}
