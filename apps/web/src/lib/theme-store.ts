import { create } from 'zustand';

export type ThemePreference = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

const THEME_STORAGE_KEY = 'theme';
const PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];
const DARK_QUERY = '(prefers-color-scheme: dark)';

interface ThemeState {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
}

/** The stored preference as a plain string (spec section 9: key 'theme'); anything unreadable means system. */
function readPreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return PREFERENCES.find((value) => value === stored) ?? 'system';
  } catch {
    return 'system';
  }
}

function writePreference(preference: ThemePreference): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage unavailable (privacy mode): the choice lasts for this page only.
  }
}

function systemTheme(): ResolvedTheme {
  // globalThis: the build renders the first views where there is no window (src/prerender.tsx).
  return typeof globalThis.matchMedia === 'function' && globalThis.matchMedia(DARK_QUERY).matches
    ? 'dark'
    : 'light';
}

function resolve(preference: ThemePreference): ResolvedTheme {
  return preference === 'system' ? systemTheme() : preference;
}

/**
 * Turns every colour transition off while the theme changes (see `paint`), and has what skips its style off
 * the screen (content-visibility: auto, the cards of components/ui/responsive-table.tsx) styled too:
 * otherwise it takes the new colours when it comes near, with the transitions back on, and fades to them.
 */
const NO_TRANSITIONS =
  '*,*::before,*::after{transition:none!important}*{content-visibility:visible!important}';

/**
 * Puts the document in `resolved`. The colours change at once: left to their transitions, the controls
 * would fade one by one, and for a moment show one theme's text on the other's background.
 */
function paint(resolved: ResolvedTheme): void {
  const root = document.documentElement;
  const dark = resolved === 'dark';
  if (root.classList.contains('dark') === dark) return;
  const freeze = document.createElement('style');
  freeze.textContent = NO_TRANSITIONS;
  document.head.append(freeze);
  root.classList.toggle('dark', dark);
  // Reading a computed style applies the new colours while transitions are off.
  void getComputedStyle(document.body).color;
  requestAnimationFrame(() => freeze.remove());
}

const useThemeStore = create<ThemeState>()((set) => {
  const preference = readPreference();
  return {
    preference,
    resolved: resolve(preference),
    setPreference: (next) => {
      writePreference(next);
      set({ preference: next, resolved: resolve(next) });
    },
  };
});

let applied = false;

/**
 * Paints the stored theme before the first render (no flash of the wrong theme) and keeps the document in
 * step with the store: with 'system' it follows the OS colour-scheme setting live (spec section 4).
 */
export function applyTheme(): void {
  paint(useThemeStore.getState().resolved);
  if (applied) return;
  applied = true;
  useThemeStore.subscribe((state) => paint(state.resolved));
  if (typeof window.matchMedia !== 'function') return;
  window.matchMedia(DARK_QUERY).addEventListener('change', () => {
    const { preference } = useThemeStore.getState();
    if (preference === 'system') useThemeStore.setState({ resolved: systemTheme() });
  });
}

/** The theme preference, the theme actually shown, and the setter for the theme menu. */
export function useTheme(): ThemeState {
  const preference = useThemeStore((state) => state.preference);
  const resolved = useThemeStore((state) => state.resolved);
  const setPreference = useThemeStore((state) => state.setPreference);
  return { preference, resolved, setPreference };
}
