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

// A page with a screen's first view keeps the app's entry and its chunks in a template, not loading
// (apps/server/src/lib/console-preload.ts); here they join the page, and the entry runs, once the browser
// reports that view painted (its first contentful paint), or on an alert's link once the rule is shown.
// At once where there is no view to wait for: a visitor without a session (the view is hidden), a hidden
// tab, a browser that does not report paints; and at the latest after ENTRY_WAIT_MS.
document.addEventListener('DOMContentLoaded', function () {
  // An alert's link (/admin/alerts?rule=<id>) shows what fired, since when and what to do before the app's
  // code has loaded (docs/benchmarks.md, "The first signed-in load"): once the session is restored, the rules
  // are asked for (src/lib/early-calls.ts hands that answer to the app) and the rule fills the frame its
  // first view draws (AlertFocusFrame in src/features/alerts/components/alert-focus.tsx, laid out as the
  // app's AlertFocus). Resolves when it is filled, or when it cannot be.
  function showAlertBrief(brief, ruleId, refresh) {
    var RULES = '/api/alerts/rules';
    var read = function (response) {
      // A copy, before the app reads the answer itself.
      return response.ok ? response.clone().json() : null;
    };
    var part = function (name) {
      return brief.querySelector('[data-brief="' + name + '"]');
    };
    var say = function (name, text) {
      var element = part(name);
      if (element) element.textContent = text;
      return element;
    };
    // As src/lib/format.ts's formatDateTime writes a time: localized, with the zone's short name.
    var when = function (value) {
      var date = new Date(value);
      var zone = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' })
        .formatToParts(date)
        .filter(function (p) {
          return p.type === 'timeZoneName';
        })
        .map(function (p) {
          return p.value;
        })[0];
      var text = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
      return zone ? text + ' ' + zone : text;
    };
    return refresh
      .then(read)
      .then(function (session) {
        // A user with an action pending (a password to change) is sent to it: the screen is not shown.
        if (!session || !session.access_token || (session.user && session.user.pending_action)) return null;
        var call = fetch(RULES, {
          headers: { accept: 'application/json', authorization: 'Bearer ' + session.access_token },
          credentials: 'same-origin',
        });
        call.catch(function () {});
        window.lumiEarlyCalls = { token: session.access_token, calls: {} };
        window.lumiEarlyCalls.calls[RULES] = call;
        return call.then(read);
      })
      .then(function (answer) {
        var rule =
          answer &&
          answer.rules.filter(function (r) {
            return r.id === ruleId;
          })[0];
        if (!rule) return;
        say('name', rule.name);
        if (rule.last_evaluation) say('what', rule.last_evaluation.summary);
        if (rule.state_since) say('since', when(rule.state_since));
        if (rule.state === 'ok') say('next-heading', 'If it fires');
        var next = say('next', rule.next_step.text + ' ');
        if (next) {
          var link = document.createElement('a');
          link.href = '/admin' + rule.next_step.to;
          link.className = 'font-medium text-primary underline-offset-2 hover:underline';
          link.textContent = rule.next_step.label;
          next.appendChild(link);
        }
        brief.removeAttribute('aria-busy');
      });
  }

  var ENTRY_WAIT_MS = 3000;
  var waiting = document.querySelector('template[data-first-view-modules]');
  if (!waiting) return;
  var started = false;
  var start = function () {
    if (started) return;
    started = true;
    var entry = waiting.content.querySelector('link[data-first-view-entry]');
    document.head.appendChild(waiting.content);
    if (!entry) return;
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
  document.addEventListener('visibilitychange', start);
  setTimeout(start, ENTRY_WAIT_MS);
  var brief = document.querySelector('[data-first-view] [data-alert-brief]');
  var ruleId = /^\?rule=([1-9][0-9]{0,14})$/.exec(location.search);
  if (brief && ruleId && window.lumiSessionRefresh) {
    // Once the rule is on screen: the frame after the one that draws it.
    var afterPaint = function () {
      requestAnimationFrame(function () {
        setTimeout(start, 0);
      });
      setTimeout(start, 100);
    };
    showAlertBrief(brief, Number(ruleId[1]), window.lumiSessionRefresh).then(afterPaint, afterPaint);
    return;
  }
  // `buffered`: a paint reported before this line counts too.
  new PerformanceObserver(function (list, observer) {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
});
