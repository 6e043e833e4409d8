// CPU time of processes from /proc (Linux, clock ticks of 10 ms), for bench/run.ts and bench/turns.ts.
import fs from "node:fs";

/** The fields of /proc/<pid>/stat after the command name: state is [0], the parent [1], utime [11]. */
function stat(pid: number | string): string[] {
  return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(")")[1]!.trim().split(" ");
}

/** CPU time (user + system) of a process in microseconds. */
export function cpuUs(pid: number): number {
  try {
    const f = stat(pid);
    return (Number(f[11]) + Number(f[12])) * 10_000;
  } catch {
    return 0;
  }
}

/** The parent of a process: for a PostgreSQL backend, its postmaster. */
export function parentPid(pid: number): number {
  return Number(stat(pid)[1]);
}

/** CPU of every child of the postmaster (backends, WAL writer, ...). */
export function postgresCpuUs(postmaster: number): number {
  let total = 0;
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = stat(d);
      // utime + stime of each living child; and of the postmaster, cutime + cstime: what its
      // children that have ended spent (parallel workers, mostly, which often start and end
      // within a round and were missed before).
      if (Number(f[1]) === postmaster) total += (Number(f[11]) + Number(f[12])) * 10_000;
      else if (Number(d) === postmaster) total += (Number(f[13]) + Number(f[14])) * 10_000;
    } catch { /* gone */ }
  }
  return total;
}
