// Starts restoring a remembered session while the console's JavaScript is still downloading, so the
// refresh is not one more round trip after it (src/lib/api-client.ts takes over this request).
// A file, not an inline script, because the Content-Security-Policy allows scripts from 'self' only.
// The storage key and shape are src/lib/auth-store.ts's (zustand's persist: {state, version}).
(function () {
  var remembered = false;
  try {
    var saved = JSON.parse(localStorage.getItem('lumi-auth') || 'null');
    remembered = !!(saved && saved.version === 2 && saved.state && saved.state.isAuthenticated);
  } catch {
    // Unreadable storage: the app signs in from scratch.
  }
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
