import { useEffect, useRef, type ReactNode } from 'react';

/** The heading of a view that replaces another inside a dialog; it takes focus so the change is announced. */
export function ViewHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h3 ref={ref} tabIndex={-1} className="text-base font-semibold outline-none">
      {children}
    </h3>
  );
}
