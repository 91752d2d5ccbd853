import { FileText } from 'lucide-react';
import { AddButton } from '@/components/ui/add-button';
import { Card, CardContent } from '@/components/ui/card';

/** The right pane before a template is chosen. */
export function EditorPlaceholder({ onCreate }: { onCreate?: () => void }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 py-16 text-center">
        <FileText aria-hidden className="size-10 text-muted-foreground" />
        <p className="text-muted-foreground">Select a template to edit or create a new one</p>
        {onCreate && <AddButton onClick={onCreate}>Create New Template</AddButton>}
      </CardContent>
    </Card>
  );
}
