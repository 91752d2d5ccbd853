/**
 * A person-readable summary of a User-Agent header for the list of signed-in sessions ("Firefox 133 on
 * macOS"). Only the browsers and systems people sign in to a console with are told apart, by the tokens
 * their vendors document; anything else is null and the console shows the raw header. Written here
 * because a full parser (ua-parser-js, bowser) ships hundreds of rules for this one line of text.
 */
const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  // Order matters: Chromium-based browsers also name Chrome and Safari, and Chrome names Safari.
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\S+)? Safari\//],
  ['curl', /^curl\/(\d+)/],
];

const SYSTEMS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Windows', /\bWindows\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

export function describeUserAgent(userAgent: string | null): { browser: string | null; os: string | null } {
  if (!userAgent) return { browser: null, os: null };
  let browser: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const version = pattern.exec(userAgent)?.[1];
    if (version) {
      browser = `${name} ${version}`;
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? null;
  return { browser, os };
}
