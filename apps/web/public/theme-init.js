// Paints the stored theme before the app's JavaScript loads, so a dark-theme user never sees a light flash.
// A file, not an inline script, because the Content-Security-Policy allows scripts from 'self' only.
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
