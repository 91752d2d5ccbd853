// Reading a scratch server's log (scripts/bench/scratch.mjs, launch with `logs`): the retention part
// waits for the entry its first retention run writes.
import { createInterface } from 'node:readline';

/**
 * Reads a server's JSON log lines from its stdout (paused until now, so nothing written since it started
 * is lost) and returns logEntry(msg, timeoutMs): the first entry with that message, whenever it comes;
 * rejects when the server exits or the time runs out first.
 */
export function watchLog({ child, exited }) {
  const entries = [];
  const waiting = new Set();
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return; // The first-admin notice and the address banner are plain text.
    }
    entries.push(entry);
    for (const wait of waiting) if (wait.msg === entry.msg) wait.resolve(entry);
  });
  return (msg, timeoutMs) => {
    const seen = entries.find((entry) => entry.msg === msg);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const wait = {
        msg,
        resolve: (entry) => {
          waiting.delete(wait);
          clearTimeout(timer);
          resolve(entry);
        },
      };
      const timer = setTimeout(() => {
        waiting.delete(wait);
        reject(new Error(`The server did not log '${msg}' within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      waiting.add(wait);
      void exited.then((code) => {
        if (!waiting.has(wait)) return;
        waiting.delete(wait);
        clearTimeout(timer);
        reject(new Error(`The server exited (code ${code}) before it logged '${msg}'; see above.`));
      });
    });
  };
}
