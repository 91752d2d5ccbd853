import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useReducer, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from '@/lib/query-client';
import { router } from './router';
import { useAfterPaint } from '@/lib/use-after-paint';

// Toasts follow a user's save, never the first paint: sonner loads once the screen has painted, off its
// critical path (docs/benchmarks.md, "The first signed-in load").
const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })));

function ToasterAfterPaint() {
  const [shown, show] = useReducer(() => true, false);
  useAfterPaint(show);
  return (
    shown && (
      <Suspense>
        <Toaster />
      </Suspense>
    )
  );
}

/**
 * The console; `onFirstPaint` runs once its first frame has painted and the first contentful paint is on
 * screen (lib/use-after-paint.ts; stable: main.tsx's).
 */
export function App({ onFirstPaint }: { onFirstPaint: () => void }) {
  const [queryClient] = useState(createQueryClient);
  useAfterPaint(onFirstPaint);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToasterAfterPaint />
    </QueryClientProvider>
  );
}
