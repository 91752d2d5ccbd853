import { Construction } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';

/** Placeholder for a screen whose own issue has not landed yet (foundation issue: "coming soon"). */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
          <Construction aria-hidden className="size-10 text-muted-foreground" />
          <p className="text-lg font-semibold">Coming soon</p>
          <p className="max-w-md text-sm text-muted-foreground">
            This screen is on its way. Use the navigation to reach the screens that are ready.
          </p>
        </CardContent>
      </Card>
    </>
  );
}
