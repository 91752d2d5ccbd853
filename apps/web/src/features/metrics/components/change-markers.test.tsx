import type { ChangeMarker } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Line, LineChart, XAxis, YAxis } from 'recharts';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers';
import { ChangeMarkerFlag, ChangeMarkers, groupChanges, timeAxisPosition } from './change-markers';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

let nextId = 1;
function change(at: string, fields: Partial<ChangeMarker> = {}): ChangeMarker {
  return {
    id: nextId++,
    at,
    user: 'admin',
    action: 'config.updated',
    resource_type: 'config_item',
    resource_name: 'Lumi',
    summary: "Updated personalities item 'Lumi' (content)",
    version: null,
    link: '/config?tab=personalities&q=Lumi',
    ...fields,
  };
}

/** A flag as recharts draws it: inside the chart's svg, at its line's x. */
const inSvg = (changes: ChangeMarker[]) => (
  <svg>
    <ChangeMarkerFlag changes={changes} viewBox={{ x: 40, y: 8 }} />
  </svg>
);

describe('groupChanges', () => {
  it('puts changes at the same position together, in order, and leaves out those without one', () => {
    const a = change('2026-11-20T10:15:00.000Z');
    const b = change('2026-11-20T18:00:00.000Z');
    const c = change('2026-11-21T09:00:00.000Z');
    const broken = change('not a time');
    const byDay = (item: ChangeMarker) => (item === broken ? null : item.at.slice(0, 10));
    expect(groupChanges([a, b, c, broken], byDay)).toEqual([
      { x: '2026-11-20', changes: [a, b] },
      { x: '2026-11-21', changes: [c] },
    ]);
    expect(groupChanges([a, broken], (item) => Date.parse(item.at))).toEqual([
      { x: Date.parse(a.at), changes: [a] },
    ]);
  });
});

describe('timeAxisPosition', () => {
  it('gathers changes close together on a long axis into one flag, never before the axis starts', () => {
    const from = Date.parse('2026-11-18T05:00:00.000Z');
    const week = timeAxisPosition(from, from + 7 * 86_400_000);
    const created = change('2026-11-20T10:15:00.000Z');
    const edited = change('2026-11-20T10:15:40.000Z');
    const later = change('2026-11-20T13:00:00.000Z');
    const first = change('2026-11-18T05:10:00.000Z');
    expect(groupChanges([first, created, edited, later], week)).toEqual([
      { x: from, changes: [first] },
      { x: Date.parse('2026-11-20T10:00:00.000Z'), changes: [created, edited] },
      { x: Date.parse('2026-11-20T12:00:00.000Z'), changes: [later] },
    ]);
    // On the last hour two changes a minute and a half apart each have their own flag.
    const hour = timeAxisPosition(
      Date.parse('2026-11-20T10:00:00.000Z'),
      Date.parse('2026-11-20T11:00:00.000Z'),
    );
    expect(groupChanges([created, change('2026-11-20T10:16:40.000Z')], hour)).toHaveLength(2);
    expect(hour(change('not a time'))).toBeNull();
  });
});

describe('change marker', () => {
  it('shows who changed what and when on keyboard focus, and Enter moves into the card, Escape back', async () => {
    const item = change('2026-11-20T10:15:00.000Z');
    const user = userEvent.setup();
    renderWithProviders(inSvg([item]));

    await user.tab();
    const flag = screen.getByRole('button', {
      name: `Change: Updated personalities item 'Lumi' (content), by admin, ${when.format(new Date(item.at))}`,
    });
    expect(flag).toHaveFocus();
    const card = await screen.findByRole('dialog', { name: 'Change' });
    expect(card).toHaveTextContent("Updated personalities item 'Lumi' (content)");
    expect(card).toHaveTextContent(`admin · ${when.format(new Date(item.at))}`);
    // Peeking keeps the focus where it was.
    expect(flag).toHaveFocus();

    await user.keyboard('{Enter}');
    const link = within(card).getByRole('link', { name: 'Open Lumi' });
    await waitFor(() => expect(link).toHaveFocus());
    expect(link).toHaveAttribute('href', '/config?tab=personalities&q=Lumi');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(flag).toHaveFocus();
  });

  it('opens on hover and closes when the pointer leaves; a click keeps it open', async () => {
    const user = userEvent.setup();
    renderWithProviders(inSvg([change('2026-11-20T10:15:00.000Z', { link: null, user: null })]));
    const flag = screen.getByRole('button', { name: /^Change: / });

    await user.hover(flag);
    const card = await screen.findByRole('dialog');
    expect(card).toHaveTextContent('Unknown user');
    // No link once the item is gone.
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    await user.unhover(flag);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // A card that only peeked leaves the focus where it was.
    expect(flag).not.toHaveFocus();

    await user.click(flag);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.unhover(flag);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('lists the newest changes of a busy moment first and says how many more there are', async () => {
    const changes = Array.from({ length: 7 }, (_, index) =>
      change(`2026-11-20T10:0${index}:00.000Z`, {
        summary: `Change ${index + 1}`,
        version: index + 1,
        user: `user-${index + 1}`,
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(inSvg(changes));
    const flag = screen.getByRole('button', { name: /^7 changes, first: Change 1, by user-1/ });
    await user.hover(flag);
    const card = await screen.findByRole('dialog', { name: '7 changes' });
    expect(
      within(card)
        .getAllByRole('listitem')
        .map((entry) => entry.querySelector('p')?.textContent),
    ).toEqual(['Change 7', 'Change 6', 'Change 5', 'Change 4', 'Change 3']);
    expect(card).toHaveTextContent('version 7');
    expect(card).toHaveTextContent('and 2 earlier changes');
  });

  it('draws one marker per moment inside a chart, and none outside its time axis', () => {
    const start = Date.parse('2026-11-20T00:00:00.000Z');
    const rows = [0, 6, 12, 18, 24].map((hour) => ({ t: start + hour * 3_600_000, value: hour }));
    renderWithProviders(
      <LineChart width={600} height={240} data={rows}>
        <XAxis dataKey="t" type="number" scale="time" domain={[rows[0]!.t, rows.at(-1)!.t]} />
        <YAxis />
        <Line dataKey="value" isAnimationActive={false} />
        <ChangeMarkers
          changes={[
            change('2026-11-20T03:00:00.000Z', { summary: 'First' }),
            change('2026-11-20T03:00:00.000Z', { summary: 'Same moment' }),
            change('2026-11-20T15:30:00.000Z', { summary: 'Later' }),
            change('2026-11-22T00:00:00.000Z', { summary: 'Outside' }),
          ]}
        />
      </LineChart>,
    );
    const flags = screen.getAllByRole('button');
    expect(flags.map((flag) => flag.getAttribute('aria-label')?.split(',')[0])).toEqual([
      '2 changes',
      'Change: Later',
    ]);
    // In time order from left to right.
    const xs = flags.map((flag) => Number(/translate\(([\d.]+)/.exec(flag.getAttribute('transform')!)?.[1]));
    expect(xs[0]).toBeLessThan(xs[1]!);
  });
});
