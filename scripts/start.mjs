// `npm start`: builds whatever is missing or older than its sources, then runs the server in this process
// (so SIGINT and SIGTERM reach it directly). The server migrates the database and creates the first admin.
import { pathToFileURL } from 'node:url';
import { buildStale, serverEntry } from './lib/build-stale.mjs';

buildStale();
await import(pathToFileURL(serverEntry).href);
