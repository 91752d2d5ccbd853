/** A field label with the spec's '*' for required fields; the star is visual, the control says required. */
export function RequiredLabel({ children }: { children: string }) {
  return (
    <>
      {children}
      <span aria-hidden className="ml-0.5 text-destructive">
        *
      </span>
    </>
  );
}
