import type { ParseMode, RenderResult } from '@lumi/contract';

/** What the render pool (render-pool.ts) and its worker (render-worker.ts) say to each other. */

/** One rendering asked of the worker. */
export interface RenderJob {
  id: number;
  content: string;
  parseMode: ParseMode;
  data: Record<string, unknown>;
  /** "Now" for formatTimeAgo, as the requesting service's clock has it. */
  now: number;
}

export type RenderAnswer =
  | { id: number; result: RenderResult }
  /** Stopped at a render limit: the template's or the data's fault (422). */
  | { id: number; limit: string }
  /** Given up because the machine was too busy (503, to be tried again). */
  | { id: number; busy: string }
  | { id: number; failure: string };

/**
 * Sent once the worker's code is loaded and it listens for jobs, with the file that holds its thread's CPU
 * time (lib/thread-cpu.ts), so the pool can tell a job that works too long from one the machine slows.
 */
export interface WorkerReady {
  ready: true;
  cpuFile: string | null;
}
