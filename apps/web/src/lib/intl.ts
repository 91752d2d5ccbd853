/**
 * Intl formatters made on first use. The page's first DateTimeFormat loads the locale's data (60 to 80 ms on
 * a phone's CPU, measured at Lighthouse's 4× throttling), and a screen's modules load before its first paint
 * while their formatting starts only once its data is there (docs/benchmarks.md, "The first signed-in load").
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

type Instant = Date | number;

export function dateTimeFormat(locales: string | undefined, options: Intl.DateTimeFormatOptions) {
  const format = onFirstUse(() => new Intl.DateTimeFormat(locales, options));
  return {
    format: (date?: Instant) => format().format(date),
    formatToParts: (date?: Instant) => format().formatToParts(date),
    formatRange: (from: Instant, to: Instant) => format().formatRange(from, to),
  };
}

export function numberFormat(locales?: string, options?: Intl.NumberFormatOptions) {
  const format = onFirstUse(() => new Intl.NumberFormat(locales, options));
  return { format: (value: number | bigint) => format().format(value) };
}

export function relativeTimeFormat(locales: string | undefined, options: Intl.RelativeTimeFormatOptions) {
  const format = onFirstUse(() => new Intl.RelativeTimeFormat(locales, options));
  return {
    format: (value: number, unit: Intl.RelativeTimeFormatUnit) => format().format(value, unit),
  };
}

/**
 * Loads the locale's number and date data (the cost of the page's first formatter of each kind) ahead of the
 * first answer's render: main.tsx calls it once the first screen has painted and its calls are out, while the
 * phone waits for the network.
 */
export function loadFormatData(): void {
  new Intl.NumberFormat().format(0);
  new Intl.DateTimeFormat().format(0);
}
