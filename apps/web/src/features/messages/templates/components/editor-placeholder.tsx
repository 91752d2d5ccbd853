import { FileText, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** The right pane before a template is chosen. */
export function EditorPlaceholder({ onCreate }: { onCreate?: () => void }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 py-16 text-center">
        <FileText aria-hidden className="size-10 text-muted-foreground" />
        <p className="text-muted-foreground">Select a template to edit or create a new one</p>
        {onCreate && (
          <Button onClick={onCreate}>
            <Plus aria-hidden />
            Create New Template
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
