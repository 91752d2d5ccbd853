import type { ConfigItem } from '@lumi/contract';
import { Tabs } from 'radix-ui';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { ViewTabList } from '@/components/ui/view-tabs';
import { cn } from '@/lib/cn';
import { contentToText, defaultContentMode } from '../lib/content';
import { DOMAIN_LABELS } from '../lib/domains';
import { ContentField } from './content-field';
import { RevisionHistory } from './revision-history';

const panelClass =
  'rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

const VIEWS = [
  { value: 'details', label: 'Details' },
  { value: 'history', label: 'History' },
] as const;

interface ConfigItemViewDialogProps {
  item: ConfigItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * An item as a reader (config:read without config:write) sees it: the fields of the edit dialog, read-only,
 * the content whole and JSON pretty-printed, and the item's history without restore.
 */
export function ConfigItemViewDialog({ item, open, onOpenChange }: ConfigItemViewDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={item.name}
      description={`${DOMAIN_LABELS[item.domain]} · version ${item.version}`}
      className="md:max-w-4xl"
    >
      <Tabs.Root defaultValue="details">
        <ViewTabList label="Item views" views={VIEWS} />
        <Tabs.Content value="details" className={cn('space-y-4', panelClass)}>
          <Alert>Read only: changing configuration needs the config:write permission.</Alert>
          <Field label="Name">
            <Input readOnly value={item.name} />
          </Field>
          <Field label="Description">
            <Textarea readOnly rows={2} value={item.description} />
          </Field>
          <ContentField
            readOnly
            mode={defaultContentMode(item.content)}
            value={contentToText(item.content)}
          />
          <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
            <Field label="Priority">
              <Input readOnly value={item.priority} />
            </Field>
            <Field label="Tags">
              <Input readOnly value={item.tags.join(', ')} />
            </Field>
          </div>
          <Checkbox
            disabled
            checked={item.is_active}
            // Disabled, so it never reports a change.
            onCheckedChange={() => undefined}
            label="Active"
            description="Only active items reach the bot"
          />
        </Tabs.Content>
        <Tabs.Content value="history" className={panelClass}>
          <RevisionHistory item={item} canRestore={false} />
        </Tabs.Content>
      </Tabs.Root>
      <DialogFooter className="mt-4">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Close
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
