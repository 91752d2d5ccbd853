import { parentPort } from 'node:worker_threads';
import { RenderLimitError } from './render-budget.js';
import { WORKER_READY, type RenderAnswer, type RenderJob } from './render-protocol.js';
import { renderTemplate } from './template-renderer.js';

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
parentPort?.postMessage(WORKER_READY);
