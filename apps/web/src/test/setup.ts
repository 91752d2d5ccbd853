import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach } from 'vitest';
import { fakeApi, stopFakeApi } from './fake-api';

// jsdom has no ResizeObserver; Radix primitives (checkbox, menus) need one to mount.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// A fake API with no routes until a test installs its own: a request nobody answered fails the test
// instead of reaching for a server that is not there.
beforeEach(() => {
  fakeApi();
});

// A toast still showing must not reach the next test.
afterEach(() => {
  toast.dismiss();
  cleanup();
  stopFakeApi();
});
