import { parentPort } from 'node:worker_threads';
import type { ParseMode, RenderResult } from '@lumi/contract';
import { RenderLimitError } from './render-budget.js';
import { renderTemplate } from './template-renderer.js';

/** One rendering asked of the worker (render-pool.ts). */
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

/** Renders templates off the event loop, one job at a time. */
parentPort?.on('message', (job: RenderJob) => {
  let answer: RenderAnswer;
  try {
    answer = {
      id: job.id,
      result: renderTemplate(job.content, job.parseMode, job.data, { now: () => job.now }),
    };
  } catch (error) {
    answer =
      error instanceof RenderLimitError
        ? { id: job.id, limit: error.message }
        : { id: job.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
