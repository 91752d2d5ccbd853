import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker script `name` that lies beside the module `here` (its import.meta.url): in production
 * the bundle's sibling `name.js` (build.mjs makes one per worker); in tests, which run the TypeScript
 * source, a bootstrap that registers tsx's loader in the worker first and then imports `name.ts`.
 */
export function startWorkerScript(here: string, name: string, options: WorkerOptions = {}): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const script = new URL(`./${name}.ts`, here).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
