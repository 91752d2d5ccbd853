/**
 * Where keyboard focus goes when the control that had it leaves the page: a row's Delete button once its
 * row is deleted, or Load more once the last page is in. The browser drops focus to the page's start, and
 * a keyboard user has to find their place again (WCAG 2.4.3, Focus Order). Instead, focus moves to the
 * control in the same place of the row that took the row's place (the next one, or the last one when the
 * row was last), or to the first row a page added.
 */

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The rows of a list or table: where a control's place is told. */
const ROW = 'tr, li, [role="row"]';

/** How long after the control's dialog closed its row may still go (the list reloads meanwhile). */
const WATCH_MS = 5_000;

export interface FocusPlace {
  /** Puts focus back: on the control while it is on the page, else in its place; watches it a while. */
  restore(): void;
}

/** The place of `control`, taken while it is on the page (when a dialog opens from it). */
export function placeOf(control: HTMLElement): FocusPlace {
  const row = control.closest<HTMLElement>(ROW);
  const list = row?.parentElement ?? null;
  const rowIndex = row && list ? [...list.children].indexOf(row) : -1;
  const controlIndex = row ? [...row.querySelectorAll(FOCUSABLE)].indexOf(control) : -1;

  const focusInPlace = () => {
    if (!list?.isConnected) return;
    const rows = [...list.children].filter((child): child is HTMLElement => child instanceof HTMLElement);
    const next = rows[Math.min(rowIndex, rows.length - 1)];
    const controls = next ? [...next.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
    const target = controls[controlIndex] ?? controls[0] ?? focusableList(list);
    target?.focus();
  };

  return {
    restore() {
      if (!control.isConnected) {
        focusInPlace();
        return;
      }
      control.focus();
      if (!list) return;
      // The row may go once its list reloads: then focus, still on the page's body, moves to its place.
      const watcher = new MutationObserver(() => {
        if (control.isConnected) return;
        stop();
        if (focusDropped()) focusInPlace();
      });
      const timer = window.setTimeout(() => stop(), WATCH_MS);
      const stop = () => {
        watcher.disconnect();
        window.clearTimeout(timer);
      };
      watcher.observe(list, { childList: true, subtree: true });
    },
  };
}

/** The list itself, when no row is left to take the focus. */
function focusableList(list: HTMLElement): HTMLElement {
  return focusableNow(list.closest<HTMLElement>('table, ul, ol') ?? list);
}

/** `element`, made focusable from code (not by Tab) if it was not. */
function focusableNow(element: HTMLElement): HTMLElement {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  return element;
}

/** Whether focus has fallen to the page itself: the control that had it has gone. */
function focusDropped(): boolean {
  return document.activeElement === document.body || document.activeElement === null;
}

/** The rows of the list just before `anchor` on the page (a table's body, or a list), if there is one. */
export function listBefore(anchor: Element): HTMLElement | null {
  for (let sibling = anchor.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    if (sibling.matches('tbody, ul, ol')) return sibling as HTMLElement;
    const lists = sibling.querySelectorAll<HTMLElement>('tbody, ul, ol');
    if (lists.length > 0) return lists[lists.length - 1]!;
  }
  return null;
}

/**
 * Once the control that had focus has gone, as Load more goes with the last page, focus goes to the first
 * row `list` gained beyond the `before` it had: to its first control, or to the row itself.
 */
export function focusFirstAdded(list: HTMLElement, before: number): void {
  if (!focusDropped()) return;
  const row = list.children[before];
  if (!(row instanceof HTMLElement)) return;
  (row.querySelector<HTMLElement>(FOCUSABLE) ?? focusableNow(row)).focus();
}
