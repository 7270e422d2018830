// CPU time of the processes a scenario runs through, read from /proc: the cost of a request in
// each process is steadier than a rate on a machine whose speed varies from run to run.
import { readdirSync, readFileSync } from "node:fs";

/** Processes to watch: a name for each, with the pids that count under it. */
export type Watched = Record<string, () => readonly number[]>;

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** user + system CPU milliseconds of a process, or undefined when /proc does not show it */
function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) may hold spaces: fields are counted after its ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
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

/** CPU milliseconds of each watched name now; a name whose processes /proc does not show is absent. */
export function cpuSnapshot(watched: Watched): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(watched)) {
    const times = pids()
      .map(cpuMs)
      .filter((ms) => ms !== undefined);
    if (times.length > 0) out[name] = times.reduce((a, b) => a + b, 0);
  }
  return out;
}

/** CPU milliseconds each watched name spent between two snapshots (names seen in both). */
export function cpuSpent(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, ms] of Object.entries(after)) {
    const start = before[name];
    if (start !== undefined) out[name] = ms - start;
  }
  return out;
}
