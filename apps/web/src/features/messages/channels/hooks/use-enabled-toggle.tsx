import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';

/**
 * Switching a channel or topic on or off from its row (its update mutation). A failure shows above the
 * list until it is dismissed or the next switch is tried.
 */
export function useEnabledToggle<V>(
  mutation: Pick<UseMutationResult<unknown, Error, V>, 'mutate' | 'isPending'>,
  failureText: string,
) {
  const [failure, setFailure] = useState<string | null>(null);
  const toggle = (variables: V) => {
    setFailure(null);
    mutation.mutate(variables, { onError: (error) => setFailure(errorMessage(error, failureText)) });
  };
  const failureAlert = failure && (
    <Alert variant="error" onDismiss={() => setFailure(null)}>
      {failure}
    </Alert>
  );
  return { toggle, toggling: mutation.isPending, failureAlert };
}
