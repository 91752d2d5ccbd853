// The CPU time a process has used, for the parts of `npm run bench` that say what a request costs the
// server beside what it costs a bare route: Linux's /proc (proc(5)), fields 14 and 15 (utime, stime) of
// /proc/<pid>/stat for the whole process and of /proc/<pid>/task/<pid>/stat for its main thread, the one
// running the event loop; how long that thread was ready to run but waited for a CPU (the second field of
// /proc/<pid>/task/<pid>/schedstat, in ns; Documentation/scheduler/sched-stats.rst); and the CPU time the
// hypervisor gave other machines (steal, the eighth count of /proc/stat's first line). Elsewhere undefined.
import { readFileSync } from 'node:fs';

/** Linux counts those fields in clock ticks of 1/USER_HZ s; USER_HZ is 100 on every Linux this runs on. */
const TICK_MS = 10;

function ticks(path) {
  const stat = readFileSync(path, 'utf8');
  // The second field, the command's name in parentheses, may hold spaces: count from its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The ms of CPU process `pid` used so far: in all its threads, and in its main thread; undefined off Linux. */
export function cpuTime(pid) {
  try {
    return {
      process: ticks(`/proc/${pid}/stat`) * TICK_MS,
      main: ticks(`/proc/${pid}/task/${pid}/stat`) * TICK_MS,
    };
  } catch {
    return undefined;
  }
}

/** The ms of CPU a request took between two readings of `cpuTime`, over `requests`; undefined without them. */
export function cpuPerRequest(before, after, requests) {
  if (!before || !after || requests === 0) return undefined;
  return {
    process: (after.process - before.process) / requests,
    main: (after.main - before.main) / requests,
  };
}

/** The machine's CPU time in clock ticks so far: in all, and stolen by the hypervisor; undefined off Linux. */
export function machineTime() {
  try {
    const counts = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    return { total: counts.reduce((sum, n) => sum + n, 0), steal: counts[7] };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time stolen between two readings of `machineTime`; undefined without them. */
export function stolenShare(before, after) {
  if (!before || !after || after.total === before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}

/** The ms process `pid`'s main thread has run so far, and waited while ready to run; undefined off Linux. */
export function mainThreadSchedule(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run: run / 1e6, wait: wait / 1e6, at: performance.now() };
  } catch {
    return undefined;
  }
}

/**
 * Between two readings of `mainThreadSchedule`: the ms a second the thread waited for a CPU while ready, and
 * that wait as a share of its running time; undefined without them.
 */
export function waitedForCpu(before, after) {
  if (!before || !after || after.run === before.run) return undefined;
  const wait = after.wait - before.wait;
  return { perSecond: (wait * 1000) / (after.at - before.at), share: wait / (after.run - before.run) };
}
