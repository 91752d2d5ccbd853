import type { ReactNode } from 'react';

interface ViewSectionProps {
  /** The heading's id, which names the section. */
  id: string;
  title: ReactNode;
  /** A line under the title. */
  description?: ReactNode;
  /** The section's buttons, at the end of the heading row. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A section of a screen's view (an Alerts or Messages tab): a heading row with its actions, then the content. */
export function ViewSection({ id, title, description, actions, className, children }: ViewSectionProps) {
  const heading = (
    <h2 id={id} className="text-lg font-semibold">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={id} className={className ?? 'space-y-4'}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {description ? (
          <div>
            {heading}
            <p className="text-xs text-muted-foreground">{description}</p>
          </div>
        ) : (
          heading
        )}
        {actions}
      </div>
      {children}
    </section>
  );
}
