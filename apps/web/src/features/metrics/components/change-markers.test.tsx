import type { ChangeMarker } from '@lumi/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Line, LineChart, XAxis, YAxis } from 'recharts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers';
import { timeAxisPosition } from '../lib/change-position';
import { ChangeMarkerFlag, ChangeMarkers, groupChanges } from './change-markers';

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
  afterEach(() => {
    vi.useRealTimers();
  });

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
    // The card waits a moment before it closes on leaving: a fake clock moves past that moment.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithProviders(inSvg([change('2026-11-20T10:15:00.000Z', { link: null, user: null })]));
    const flag = screen.getByRole('button', { name: /^Change: / });

    await user.hover(flag);
    const card = await screen.findByRole('dialog');
    // No link once the item is gone.
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    await user.unhover(flag);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // A card that only peeked leaves the focus where it was.
    expect(flag).not.toHaveFocus();

    await user.click(flag);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.unhover(flag);
    await act(() => vi.advanceTimersByTimeAsync(300));
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
    expect(within(card).getByRole('button', { name: 'and 2 earlier changes' })).toBeInTheDocument();
  });

  it('says System for a change made without a signed-in user', async () => {
    const item = change('2026-11-20T10:15:00.000Z', {
      user: null,
      summary: 'Imported 3 configuration items',
    });
    const user = userEvent.setup();
    renderWithProviders(inSvg([item]));
    const flag = screen.getByRole('button', {
      name: `Change: Imported 3 configuration items, by System, ${when.format(new Date(item.at))}`,
    });
    await user.hover(flag);
    const card = await screen.findByRole('dialog', { name: 'Change' });
    expect(card).toHaveTextContent(`System · ${when.format(new Date(item.at))}`);
    expect(card).not.toHaveTextContent(/unknown/i);
  });

  it('opens the list of the earlier changes from "and 25 earlier changes", by keyboard too', async () => {
    const changes = Array.from({ length: 30 }, (_, index) =>
      change(`2026-11-20T10:${String(index).padStart(2, '0')}:00.000Z`, {
        summary: `Change ${index + 1}`,
        link: null,
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(inSvg(changes));

    await user.tab();
    await user.keyboard('{Enter}');
    const card = await screen.findByRole('dialog', { name: '30 changes' });
    await waitFor(() => expect(card).toHaveFocus());
    await user.tab();
    const more = within(card).getByRole('button', { name: 'and 25 earlier changes' });
    expect(more).toHaveFocus();
    expect(more).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{Enter}');
    const earlier = within(card).getByRole('list', { name: 'Earlier changes' });
    expect(
      within(earlier)
        .getAllByRole('listitem')
        .map((entry) => entry.querySelector('p')?.textContent),
    ).toEqual(Array.from({ length: 25 }, (_, index) => `Change ${25 - index}`));
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(more).toHaveAccessibleName('Hide the 25 earlier changes');
    expect(more).toHaveFocus();

    await user.click(more);
    expect(within(card).queryByRole('list', { name: 'Earlier changes' })).not.toBeInTheDocument();
    expect(more).toHaveAttribute('aria-expanded', 'false');
  });

  it('keeps a card opened on hover once its earlier changes are opened', async () => {
    const changes = Array.from({ length: 6 }, (_, index) =>
      change(`2026-11-20T10:0${index}:00.000Z`, { summary: `Change ${index + 1}` }),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithProviders(inSvg(changes));
    const flag = screen.getByRole('button', { name: /^6 changes/ });

    await user.hover(flag);
    const card = await screen.findByRole('dialog');
    await user.hover(card);
    await user.click(within(card).getByRole('button', { name: 'and 1 earlier change' }));
    await user.unhover(card);
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByRole('dialog')).toHaveTextContent('Change 1');
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

describe('change marker card placement', () => {
  const TOP_BAR_PX = 72;
  const CARD = { width: 288, height: 200 };

  /**
   * jsdom lays nothing out: a 1024 × 768 window whose sticky top bar keeps 72 px (the page's
   * scroll-padding-top, as a browser resolves styles.css's), a flag `flagTop` px from the top, a card of
   * 288 × 200 px.
   */
  function layOut(flagTop: number) {
    document.documentElement.style.scrollPaddingTop = `${TOP_BAR_PX}px`;
    vi.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(1024);
    vi.spyOn(document.documentElement, 'clientHeight', 'get').mockReturnValue(768);
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      if (this.getAttribute('role') === 'button' && this instanceof SVGElement) {
        return new DOMRect(500, flagTop, 18, 20);
      }
      return new DOMRect();
    });
    const isCard = (element: HTMLElement) => element.hasAttribute('data-radix-popper-content-wrapper');
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return isCard(this) ? CARD.width : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return isCard(this) ? CARD.height : 0;
    });
  }

  afterEach(() => {
    document.documentElement.style.removeProperty('scroll-padding-top');
    vi.restoreAllMocks();
  });

  /** Where the card landed: its side of the flag, and its top edge in the window. */
  async function openCard() {
    const user = userEvent.setup();
    renderWithProviders(inSvg([change('2026-11-20T10:15:00.000Z')]));
    await user.click(screen.getByRole('button', { name: /^Change: / }));
    const card = await screen.findByRole('dialog');
    const wrapper = card.parentElement!;
    await waitFor(() => expect(wrapper.style.transform).toMatch(/translate\(/));
    const top = Number(/translate\([-\d.]+px, ([-\d.]+)px\)/.exec(wrapper.style.transform)?.[1]);
    return { side: card.getAttribute('data-side'), top };
  }

  it('opens above its flag when it fits below the top bar', async () => {
    layOut(400);
    const { side, top } = await openCard();
    expect(side).toBe('top');
    expect(top).toBeGreaterThanOrEqual(TOP_BAR_PX);
  });

  it('opens below its flag, fully visible, when above it the card would be under the top bar', async () => {
    // Above the flag are 250 px: room for the card in the window, but not below the 72 px top bar.
    layOut(250);
    const { side, top } = await openCard();
    expect(side).toBe('bottom');
    expect(top).toBeGreaterThanOrEqual(TOP_BAR_PX);
    expect(top + CARD.height).toBeLessThanOrEqual(768);
  });
});
