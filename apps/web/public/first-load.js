// What runs before the console's JavaScript, in one file so a phone asks for one script instead of two.
// A file, not an inline script, because the Content-Security-Policy allows scripts from 'self' only.

// Paints the stored theme before the app's JavaScript loads, so a dark-theme user never sees a light flash.
// src/lib/theme-store.ts takes over once the app runs (same key 'theme', same rules).
(function () {
  var preference = 'system';
  try {
    preference = localStorage.getItem('theme') || 'system';
  } catch {
    // Storage unavailable: follow the system setting.
  }
  var dark =
    preference === 'dark' ||
    (preference !== 'light' &&
      window.matchMedia &&
      window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
})();

// Starts restoring a remembered session while the console's JavaScript is still downloading, so the
// refresh is not one more round trip after it (src/lib/api-client.ts takes over this request).
// The storage key and shape are src/lib/auth-store.ts's (zustand's persist: {state, version}).
(function () {
  var remembered = false;
  try {
    var saved = JSON.parse(localStorage.getItem('lumi-auth') || 'null');
    remembered = !!(saved && saved.version === 2 && saved.state && saved.state.isAuthenticated);
  } catch {
    // Unreadable storage: the app signs in from scratch.
  }
  // A visitor without a session is sent to sign in: the screen's first view in the page is not for them.
  if (!remembered) document.documentElement.setAttribute('data-signed-out', '');
  if (!remembered || !window.fetch) return;
  var request = fetch('/api/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  // The app reads the outcome; until then a network error must not be reported as unhandled.
  request.catch(function () {});
  window.lumiSessionRefresh = request;
})();

// A page with a screen's first view names the app's entry instead of running it
// (apps/server/src/lib/console-preload.ts); it runs here once the browser reports that view painted (its
// first contentful paint). At once where there is no view to wait for: a visitor without a session (the
// view is hidden), a hidden tab, a browser that does not report paints; and at the latest after
// ENTRY_WAIT_MS.
document.addEventListener('DOMContentLoaded', function () {
  var ENTRY_WAIT_MS = 3000;
  var entry = document.querySelector('link[data-first-view-entry]');
  if (!entry) return;
  var started = false;
  var start = function () {
    if (started) return;
    started = true;
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry.href;
    document.head.appendChild(script);
  };
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (
    document.documentElement.hasAttribute('data-signed-out') ||
    document.visibilityState === 'hidden' ||
    !types ||
    types.indexOf('paint') < 0
  ) {
    return start();
  }
  // `buffered`: a paint reported before this line counts too.
  new PerformanceObserver(function (list, observer) {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', start);
  setTimeout(start, ENTRY_WAIT_MS);
});
