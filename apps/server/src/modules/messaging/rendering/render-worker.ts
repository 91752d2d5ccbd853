import { parentPort } from 'node:worker_threads';
import { currentThreadCpuFile, threadCpuReader } from '../../../lib/thread-cpu.js';
import { RENDER_LIMITS, RenderBudget, RenderBusyError, RenderLimitError } from './render-budget.js';
import type { RenderAnswer, RenderJob, WorkerReady } from './render-protocol.js';
import { renderTemplate } from './template-renderer.js';

const cpuFile = currentThreadCpuFile();
const cpu = threadCpuReader(cpuFile);
const wall = performance.now.bind(performance);
const clocks = { wall, cpu: cpu ? cpu.read : wall };

/** Renders templates off the event loop, one job at a time, each within a budget of this thread's CPU. */
parentPort?.on('message', (job: RenderJob) => {
  let answer: RenderAnswer;
  try {
    answer = {
      id: job.id,
      result: renderTemplate(job.content, job.parseMode, job.data, {
        now: () => job.now,
        budget: new RenderBudget(RENDER_LIMITS, clocks),
      }),
    };
  } catch (error) {
    answer =
      error instanceof RenderLimitError
        ? { id: job.id, limit: error.message }
        : error instanceof RenderBusyError
          ? { id: job.id, busy: error.message }
          : { id: job.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
parentPort?.postMessage({ ready: true, cpuFile } satisfies WorkerReady);
