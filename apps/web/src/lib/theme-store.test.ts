import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A controllable prefers-color-scheme media query. */
function fakeColorScheme(initiallyDark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: initiallyDark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => query);
  return (dark: boolean) => {
    query.matches = dark;
    listeners.forEach((listener) => listener());
  };
}

async function loadThemeStore() {
  vi.resetModules();
  return import('./theme-store');
}

const isDark = () => document.documentElement.classList.contains('dark');

describe('theme store', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    document.documentElement.classList.remove('dark');
  });

  it('defaults to system and follows the OS setting live', async () => {
    const setOsDark = fakeColorScheme(false);
    const { applyTheme } = await loadThemeStore();
    applyTheme();
    expect(isDark()).toBe(false);

    setOsDark(true);
    expect(isDark()).toBe(true);
  });

  it('applies the stored choice and stores a new one under "theme"', async () => {
    const setOsDark = fakeColorScheme(false);
    localStorage.setItem('theme', 'dark');
    const { applyTheme, useTheme } = await loadThemeStore();
    applyTheme();
    expect(isDark()).toBe(true);

    const { renderHook, act } = await import('@testing-library/react');
    const { result } = renderHook(() => useTheme());
    expect(result.current.preference).toBe('dark');
    act(() => result.current.setPreference('light'));
    expect(isDark()).toBe(false);
    expect(localStorage.getItem('theme')).toBe('light');

    setOsDark(true);
    expect(isDark()).toBe(false);
  });

  it('treats an unknown stored value as system', async () => {
    fakeColorScheme(true);
    localStorage.setItem('theme', 'sepia');
    const { applyTheme } = await loadThemeStore();
    applyTheme();
    expect(isDark()).toBe(true);
  });
});
