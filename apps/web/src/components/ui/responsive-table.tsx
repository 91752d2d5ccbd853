import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { TableFrame, Td, Th } from './table';

export interface ResponsiveColumn<Row> {
  /** The column heading; on a phone also the label before the value. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Figures: right-aligned, with digits of equal width. */
  numeric?: boolean;
  /** The row's name: on a phone it heads the row's card, without a label. */
  primary?: boolean;
  /** A heading for screen readers only (Actions); on a phone the cell sits in the card's top corner. */
  headerHidden?: boolean;
  /** How many icon buttons that corner holds (1 unless said): the card's name keeps clear of them. */
  cornerButtons?: 1 | 2;
  /** On a phone, the hidden-heading cell goes below the card's lines instead (buttons with words). */
  below?: boolean;
  className?: string;
}

interface ResponsiveTableProps<Row> {
  'aria-label': string;
  columns: ReadonlyArray<ResponsiveColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
}

/**
 * A phone's "label: value" line. The label is generated content, so the cell's text stays its value, and
 * its alternative text is empty, so a screen reader, which already names the cell by its column heading,
 * does not hear it twice. A value too long for the line (a URL in a reason, a long feature name) wraps
 * under itself, right-aligned, wherever it must (CSS Text 3, `overflow-wrap: anywhere`, which also lets the
 * value shrink beside its label; set on the value's own element too, whose `break-words` would undo it).
 */
const labelled =
  "max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-3 max-sm:text-right max-sm:[overflow-wrap:anywhere] max-sm:*:[overflow-wrap:anywhere] max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:font-normal max-sm:before:font-sans max-sm:before:text-sm max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)_/_'']";

/** The room a card's name leaves for the buttons in its corner. */
const CORNER_ROOM = { 1: 'max-sm:pr-10', 2: 'max-sm:pr-20' } as const;

/**
 * A table on screens from 640 px up; below that each row becomes a card of "label: value" lines headed by
 * its primary cell, so no column hides off-screen and no name has to break mid-word. The explicit roles
 * keep the table's semantics when the phone layout changes its display (browsers drop them otherwise).
 */
export function ResponsiveTable<Row>({
  'aria-label': label,
  columns,
  rows,
  rowKey,
}: ResponsiveTableProps<Row>) {
  const corner = columns.find((column) => column.headerHidden && !column.below);
  return (
    <TableFrame label={label} className="max-sm:overflow-visible">
      <table role="table" aria-label={label} className="w-full text-sm max-sm:block">
        <thead role="rowgroup" className="max-sm:sr-only">
          <tr role="row">
            {columns.map((column) => (
              <Th
                key={column.header}
                role="columnheader"
                // A figure's heading stays one line above its right-aligned digits ("Denied (24 h)").
                className={cn(column.numeric && 'text-right whitespace-nowrap')}
              >
                {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:block max-sm:divide-y">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              className={cn(
                'max-sm:relative max-sm:block max-sm:space-y-1.5 max-sm:p-3',
                // A card off the screen skips style and layout until it comes near (CSS Containment 2,
                // content-visibility): a list of fifty cards then lays out the few a phone shows first.
                'max-sm:[contain-intrinsic-size:auto_8rem] max-sm:[content-visibility:auto]',
              )}
            >
              {columns.map((column) => (
                <Td
                  key={column.header}
                  role="cell"
                  data-label={column.header}
                  className={cn(
                    'max-sm:border-0 max-sm:p-0',
                    column.primary &&
                      cn(
                        'break-words max-sm:block max-sm:pb-0.5',
                        corner && CORNER_ROOM[corner.cornerButtons ?? 1],
                      ),
                    column.headerHidden &&
                      (column.below
                        ? 'max-sm:flex max-sm:flex-wrap max-sm:justify-end max-sm:gap-1 max-sm:pt-1'
                        : 'max-sm:absolute max-sm:top-1.5 max-sm:right-1.5'),
                    !column.primary && !column.headerHidden && labelled,
                    column.numeric && 'text-right tabular-nums',
                    column.className,
                  )}
                >
                  {column.cell(row)}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
