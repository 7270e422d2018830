// CPU time of the processes a scenario runs through, read from /proc: the cost of a request in
// each process is steadier than a rate on a machine whose speed varies from run to run. The
// kernel's part (system time) is kept apart: it is what a process pays for its syscalls, and
// for sleeping and being woken between messages.
import { readdirSync, readFileSync } from "node:fs";

/** Processes to watch: a name for each, with the pids that count under it. */
export type Watched = Record<string, () => readonly number[]>;

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds in all, and of them in the kernel */
export interface CpuTime {
  totalMs: number;
  systemMs: number;
}

/** the CPU time of a process, or undefined when /proc does not show it */
function cpuOf(pid: number): CpuTime | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) may hold spaces: fields are counted after its ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [user, system] = [Number(fields[11]), Number(fields[12])];
    return {
      totalMs: ((user + system) * 1000) / TICKS_PER_SECOND,
      systemMs: (system * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** Every local process whose command is `command` (for a server the stack did not start). */
export function pidsOf(command: string): number[] {
  try {
    return readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === command;
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/** The CPU time of each watched name now; a name whose processes /proc does not show is absent. */
export function cpuSnapshot(watched: Watched): Record<string, CpuTime> {
  const out: Record<string, CpuTime> = {};
  for (const [name, pids] of Object.entries(watched)) {
    const times = pids()
      .map(cpuOf)
      .filter((time) => time !== undefined);
    if (times.length > 0) out[name] = times.reduce(addCpu, NO_CPU);
  }
  return out;
}

export const NO_CPU: CpuTime = { totalMs: 0, systemMs: 0 };

/** `a + sign × b`, field by field */
const combine = (a: CpuTime, b: CpuTime, sign: 1 | -1): CpuTime => ({
  totalMs: a.totalMs + sign * b.totalMs,
  systemMs: a.systemMs + sign * b.systemMs,
});

export const addCpu = (a: CpuTime, b: CpuTime): CpuTime => combine(a, b, 1);

/** The CPU time each watched name spent between two snapshots (names seen in both). */
export function cpuSpent(
  before: Record<string, CpuTime>,
  after: Record<string, CpuTime>,
): Record<string, CpuTime> {
  const out: Record<string, CpuTime> = {};
  for (const [name, time] of Object.entries(after)) {
    const start = before[name];
    if (start !== undefined) out[name] = combine(time, start, -1);
  }
  return out;
}
