import { startTransition, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { usePainted } from '@/lib/use-painted';

/** How far outside the window a waiting place may be and still be drawn: it is drawn before it scrolls in. */
const NEAR_MARGIN = '300px 0px';

/**
 * Whether Tab has been pressed since the console loaded or since the pointer was last used (a keyboard user,
 * as browsers decide where `:focus-visible` shows), and the places waiting for it: a place that appears after
 * that Tab (its panel's answer came later, the Tab came before the paint, or on another screen) is drawn at
 * once, so its controls are in the tab order. A press of the pointer makes places wait to be scrolled to
 * again, so one Tab in a form does not draw every chart for the rest of the session.
 */
let tabbed = false;
const waitingForTab = new Set<() => void>();
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || tabbed) return;
    tabbed = true;
    for (const draw of waitingForTab) draw();
  });
  document.addEventListener('pointerdown', () => (tabbed = false), { capture: true });
}

/**
 * Whether `place` has come within NEAR_MARGIN of the window or a keyboard user's Tab asked for everything,
 * set in a transition; printing sets it before the page is laid out for paper. Watched only while `watch`
 * is true.
 */
function useNear(place: RefObject<HTMLDivElement | null>, watch: boolean): boolean {
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = place.current;
    if (!watch || near || !element) return;
    const draw = () => startTransition(() => setNear(true));
    if (tabbed) {
      draw();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) draw();
      },
      { rootMargin: NEAR_MARGIN },
    );
    // A transition would render after the page is printed.
    const drawForPrint = () => flushSync(() => setNear(true));
    observer.observe(element);
    waitingForTab.add(draw);
    window.addEventListener('beforeprint', drawForPrint);
    return () => {
      observer.disconnect();
      waitingForTab.delete(draw);
      window.removeEventListener('beforeprint', drawForPrint);
    };
  }, [place, watch, near]);
  return near;
}

/**
 * Renders its children once the browser has painted what is already there, and once their place is within
 * NEAR_MARGIN of the window, in a transition. Drawing a chart (recharts) is the heaviest render on these
 * screens: this way the panel's figures are shown first, a chart below the fold on a phone is drawn only
 * when it is about to be seen, and React renders each chart in slices it yields between, instead of one long
 * task that blocks the page (docs/benchmarks.md, "The first signed-in load"). A keyboard user's first Tab and
 * printing draw every chart at once, and every chart that appears after that Tab, so the controls inside
 * charts are in the tab order and on paper.
 */
export function AfterPaint({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const painted = usePainted();
  const place = useRef<HTMLDivElement>(null);
  const near = useNear(place, painted);
  if (painted && near) return children;
  if (!painted) return fallback;
  return (
    <WaitingPlace place={place} label="Chart, drawn when it is scrolled into view" fallback={fallback} />
  );
}

/**
 * A place waiting to be scrolled to, not loading: a screen reader is told `label` instead of "Loading", and
 * the fallback only shows its shape.
 */
function WaitingPlace({
  place,
  label,
  fallback,
}: {
  place: RefObject<HTMLDivElement | null>;
  label: string;
  fallback: ReactNode;
}) {
  return (
    <div ref={place} role="img" aria-label={label}>
      <div aria-hidden>{fallback}</div>
    </div>
  );
}

/** Tailwind's `sm` breakpoint: narrower is a phone, where the screens stack their panels in one column. */
const PHONE = '(max-width: 639px)';

/** Whether the window is a phone's (PHONE); false where there is no window (the build's first views). */
export function isPhone(): boolean {
  // globalThis: the build renders the first view where there is no window (src/prerender.tsx).
  return typeof globalThis.matchMedia === 'function' && globalThis.matchMedia(PHONE).matches;
}

/**
 * On a phone, renders its children (panels, with their calls) once the top of their place comes within
 * NEAR_MARGIN of the window, as AfterPaint draws charts: a phone's first view renders only what it shows,
 * and the panels further down ask for their data and render when they are scrolled to (docs/benchmarks.md,
 * "The first signed-in load"). Wider screens and a keyboard user's Tab render them at once; printing renders
 * them too, with what their calls have answered by then.
 */
export function NearOnPhone({
  children,
  fallback,
  label,
}: {
  children: ReactNode;
  fallback: ReactNode;
  /** What the place says to a screen reader until then. */
  label: string;
}) {
  const [phone] = useState(isPhone);
  const place = useRef<HTMLDivElement>(null);
  const near = useNear(place, phone);
  if (!phone || near) return children;
  return <WaitingPlace place={place} label={label} fallback={fallback} />;
}
