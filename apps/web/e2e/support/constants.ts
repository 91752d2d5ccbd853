export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const ADMIN_USERNAME = 'admin';
/** The first admin's password for the throwaway e2e database (never a product default). */
export const ADMIN_PASSWORD = 'E2e-Lantern-Orbit-7731';
/**
 * A second server (start-server.mjs with E2E_MOVABLE_CLOCK=1) for the specs that move the server's clock
 * forward, so the shared server's time stays real for every other spec.
 */
export const CLOCK_SERVER_PORT = E2E_PORT + 1;
