import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from '@/lib/query-client';
import { router } from './router';
import { useSessionRestore } from './use-session-restore';

export function App() {
  const [queryClient] = useState(createQueryClient);
  useSessionRestore();
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
