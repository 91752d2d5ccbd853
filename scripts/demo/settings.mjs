// Where `npm run demo` (scripts/demo.mjs) keeps its data and serves the console, from the environment:
// DATA_DIR (./data-demo by default), PORT, HOST, LUMI_ADMIN_USERNAME and DEMO_HISTORY_HOURS.
import path from 'node:path';
import { root } from '../lib/build-stale.mjs';
import { LumiApi } from '../lib/lumi-api.mjs';
import { span } from './print.mjs';

const env = process.env;
export const dataDir = path.resolve(env.DATA_DIR || path.join(root, 'data-demo'));
/** The data directory as the demo's messages name it: relative to the working directory when inside it. */
export const shownDir = path.relative(process.cwd(), dataDir).startsWith('..')
  ? dataDir
  : `./${path.relative(process.cwd(), dataDir)}`;
export const port = Number(env.PORT || 3000);
export const host = env.HOST || '0.0.0.0';
const wildcard = host === '0.0.0.0' || host === '::';
const apiHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
/** The demo's server, as the simulated bot and the set-up call it. */
export const api = new LumiApi(`http://${apiHost}:${port}`);
export const consoleUrl = `http://${wildcard ? 'localhost' : apiHost}:${port}/admin`;
export const username = env.LUMI_ADMIN_USERNAME || 'admin';
export const historyHours = Number(env.DEMO_HISTORY_HOURS || 7 * 24);
export const historySpan =
  historyHours % 24 === 0 ? span(historyHours / 24, 'day') : span(historyHours, 'hour');
