import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from '@/lib/query-client';
import { router } from './router';

// Toasts follow a user's save, never the first paint: sonner loads beside the screen, off its critical path.
const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })));

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Suspense>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
