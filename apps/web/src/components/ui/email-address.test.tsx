import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress } from './email-address';

describe('EmailAddress', () => {
  it('may wrap only after its @ and its dots', () => {
    const { container } = render(
      <p>
        <EmailAddress email="admin@localhost.localdomain" />
      </p>,
    );
    expect(container.querySelector('p')).toHaveTextContent('admin@localhost.localdomain');
    expect(container.querySelector('p')?.innerHTML).toBe('admin@<wbr>localhost.<wbr>localdomain');
  });
});
