export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const ADMIN_USERNAME = 'admin';
/** The first admin's password for the throwaway e2e database (never a product default). */
export const ADMIN_PASSWORD = 'E2e-Lantern-Orbit-7731';
