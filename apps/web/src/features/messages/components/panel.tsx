import type { ReactNode } from 'react';

/** One of the editor's side panels (Variables, Preview, Test), with its heading. */
export function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border bg-background/50 p-3">
      <h3 id={id} className="mb-3 text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}
