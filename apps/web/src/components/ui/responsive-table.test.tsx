import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ResponsiveTable, type ResponsiveColumn } from './responsive-table';

interface Service {
  name: string;
  calls: number;
}

const columns: ReadonlyArray<ResponsiveColumn<Service>> = [
  { header: 'Service', primary: true, cell: (service) => service.name },
  { header: 'Calls', numeric: true, cell: (service) => String(service.calls) },
  { header: 'Actions', headerHidden: true, cell: (service) => <button>Edit {service.name}</button> },
];

describe('ResponsiveTable', () => {
  it('is one table, its cells holding only their values and the phone labels kept in data', () => {
    render(
      <ResponsiveTable
        aria-label="Services"
        columns={columns}
        rows={[{ name: 'coingecko', calls: 12 }]}
        rowKey={(service) => service.name}
      />,
    );
    const table = screen.getByRole('table', { name: 'Services' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Service', 'Calls', 'Actions']);
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual(['coingecko', '12', 'Edit coingecko']);
    expect(cells.map((cell) => cell.dataset.label)).toEqual(['Service', 'Calls', 'Actions']);
  });

  it('is not a tab stop while it fits', () => {
    render(
      <ResponsiveTable
        aria-label="Services"
        columns={columns}
        rows={[]}
        rowKey={(service) => service.name}
      />,
    );
    expect(screen.queryByRole('region', { name: 'Services' })).not.toBeInTheDocument();
  });
});
