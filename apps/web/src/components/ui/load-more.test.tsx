import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers';
import { LoadMore } from './load-more';

/** A list of `pageSize` rows a page, `total` in all, each row with a link. */
function PagedList({ pageSize, total }: { pageSize: number; total: number }) {
  const [shown, setShown] = useState(pageSize);
  const pages = {
    hasNextPage: shown < total,
    isFetchingNextPage: false,
    isFetchNextPageError: false,
    fetchNextPage: () => {
      setShown((n) => Math.min(total, n + pageSize));
      return Promise.resolve();
    },
  };
  return (
    <section>
      <ul aria-label="Entries">
        {Array.from({ length: shown }, (_, i) => (
          <li key={i}>
            <a href={`#entry-${i + 1}`}>Entry {i + 1}</a>
          </li>
        ))}
      </ul>
      <p>
        Showing {shown} of {total}
      </p>
      <LoadMore pages={pages} />
    </section>
  );
}

describe('Load more', () => {
  it('keeps focus on itself while more pages remain', async () => {
    renderWithProviders(<PagedList pageSize={2} total={6} />);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Entry 4' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Load more' })).toHaveFocus();
  });

  it('hands focus to the first row of the last page when it goes', async () => {
    renderWithProviders(<PagedList pageSize={2} total={3} />);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('link', { name: 'Entry 3' })).toHaveFocus());
  });
});
