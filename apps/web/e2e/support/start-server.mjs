// Starts the built server on a throwaway data directory for the end-to-end tests, and removes it on exit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dataDir = mkdtempSync(path.join(tmpdir(), 'lumi-e2e-'));
const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
process.on('exit', cleanup);

Object.assign(process.env, {
  DATA_DIR: dataDir,
  PORT: process.env.E2E_PORT ?? '3199',
  HOST: '127.0.0.1',
  LUMI_ADMIN_USERNAME: 'admin',
  LUMI_ADMIN_PASSWORD: 'E2e-Lantern-Orbit-7731',
  LOG_LEVEL: 'warn',
});
delete process.env.DATABASE_URL;

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server/dist/server.js');
await import(pathToFileURL(server).href);
