import type { Silence } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useUpdateSilence } from '../api/silences';
import { describeSilenceScope, endNowInput } from '../lib/silences';

/**
 * "End now" for an active silence that runs until a time: its end becomes the server's now, and it stays
 * in the list, expired. The question names both choices ('End Silence' beside 'Keep Silence').
 */
export function EndSilenceButton({ silence }: { silence: Silence }) {
  const [open, setOpen] = useState(false);
  const end = useUpdateSilence();
  const change = (next: boolean) => {
    if (end.isPending) return;
    setOpen(next);
    if (!next) end.reset();
  };
  const confirm = () =>
    end.mutate(
      { id: silence.id, input: endNowInput(silence) },
      {
        onSuccess: () => {
          toast.success('Silence ended');
          setOpen(false);
        },
      },
    );

  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`End silence: ${silence.comment}`}
        onClick={() => setOpen(true)}
      >
        End
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={change}
        title="End this silence now?"
        description={`${describeSilenceScope(silence)}: the alerts it mutes notify again from now on. It stays in the list as expired.`}
        confirmLabel="End Silence"
        cancelLabel="Keep Silence"
        pendingLabel="Ending..."
        pending={end.isPending}
        onConfirm={confirm}
        error={end.error ? errorMessage(end.error, 'Failed to end the silence') : null}
      />
    </>
  );
}
