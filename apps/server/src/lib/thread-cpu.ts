import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';

/**
 * CPU time of one thread, in milliseconds: what a time limit should count when it means "work done", so
 * that a machine busy with other processes, which stretches every wall-clock measure, cannot trip it.
 *
 * Linux keeps each thread's time on the CPU in nanoseconds in /proc/<pid>/task/<tid>/schedstat (the first
 * field; Documentation/scheduler/sched-stats.rst). Node 20 has no per-thread CPU clock of its own
 * (process.cpuUsage counts every thread of the process), so where that file is missing a reader is null
 * and callers fall back to wall time.
 */
export interface ThreadCpuReader {
  /** The thread's CPU time so far, in ms. */
  read(): number;
  close(): void;
}

const buffer = Buffer.alloc(128);

function openReader(file: string): ThreadCpuReader | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  return {
    read: () => {
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      return Number(buffer.toString('latin1', 0, length).split(' ', 1)[0]) / 1e6;
    },
    close: () => closeSync(fd),
  };
}

/** The schedstat file of the calling thread, under a name another thread of the process can open too. */
export function currentThreadCpuFile(): string | null {
  try {
    return `/proc/${readlinkSync('/proc/thread-self')}/schedstat`;
  } catch {
    return null;
  }
}

/** A reader of the CPU time of the thread whose file `currentThreadCpuFile` gave, or null. */
export function threadCpuReader(file: string | null): ThreadCpuReader | null {
  return file === null ? null : openReader(file);
}
