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
  sendFirstCalls(request);

  // The first screen's data calls, sent with the restored session's token as soon as the refresh answers,
  // while the console's JavaScript is still downloading: its first call for the same address takes the
  // answer (src/lib/early-calls.ts) instead of asking after its first paint. Only screens of one to three
  // calls, whose largest text is their data: a phone on slow 4G opens at most six connections and the scripts
  // need them first. The addresses are the app's own (e2e/first-load.spec.ts checks each is taken once).
  function sendFirstCalls(refresh) {
    var FIRST_CALLS = {
      '/admin/config': ['/api/admin/api/config/personalities'],
      '/admin/messages': ['/api/v1/messaging/channels', '/api/v1/messaging/templates'],
      '/admin/alerts': ['/api/alerts/rules'],
      '/admin/limits': ['/api/limits'],
      '/admin/users': ['/api/users?page=1&limit=20', '/api/roles'],
      '/admin/admin': ['/api/admin/audit-logs?limit=50'],
      '/admin/profile': ['/api/auth/profile', '/api/auth/2fa', '/api/auth/sessions'],
    };
    // Another query asks for other data; an alert's link (?rule=) for the same rules as the Alerts screen.
    var plain =
      location.search === '' ||
      (location.pathname === '/admin/alerts' && /^\?rule=[^&]*$/.test(location.search));
    var calls =
      plain &&
      Object.prototype.hasOwnProperty.call(FIRST_CALLS, location.pathname) &&
      FIRST_CALLS[location.pathname];
    if (!calls) return;
    refresh
      // Read from a copy before the app reads the answer itself.
      .then(function (response) {
        return response.ok ? response.clone().json() : null;
      })
      .then(function (session) {
        // A user with an action pending (a password to change) is sent to it: the screen is not shown.
        if (!session || !session.access_token || (session.user && session.user.pending_action)) return;
        var early = { token: session.access_token, made: [], calls: {} };
        calls.forEach(function (url) {
          var call = fetch(url, {
            headers: { accept: 'application/json', authorization: 'Bearer ' + session.access_token },
            credentials: 'same-origin',
          });
          call.catch(function () {});
          early.calls[url] = call;
          early.made.push(url);
        });
        window.lumiEarlyCalls = early;
      })
      .catch(function () {});
  }
})();
