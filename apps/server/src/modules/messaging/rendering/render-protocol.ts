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
  { id: number; result: RenderResult } | { id: number; limit: string } | { id: number; failure: string };

/** Sent once the worker's code is loaded and it listens for jobs. */
export const WORKER_READY = 'ready';
