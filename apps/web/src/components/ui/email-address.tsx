import { Fragment } from 'react';

/**
 * An e-mail address that wraps on a narrow screen only after its '@' and its dots ("admin@" /
 * "localhost." / "localdomain"), never inside a word as `break-all` would.
 */
export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
