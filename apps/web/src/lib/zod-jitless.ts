import { config } from 'zod/v4/core';

// zod probes whether it may compile parsers with `new Function` the first time a schema is built; under the
// console's Content-Security-Policy (no 'unsafe-eval') that probe is blocked, and Chromium reports the
// blocked attempt as a policy violation even though zod catches it. Saying so up front skips the probe.
// Imported first by main.tsx, before any schema exists.
config({ jitless: true });
