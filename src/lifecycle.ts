// Running a long-lived process (`npm start`, `koers worker`) until a signal: SIGINT (Ctrl-C),
// SIGTERM (service managers, docker stop) and SIGHUP (the terminal closed) all shut down
// cleanly and exit 0. A start that fails prints one line naming what to change, no stack.
/** Settings meant for tests only, and what each does when left on. */
const TEST_ONLY: Record<string, string> = {
  KOERS_NOW: "the clock is frozen",
  KOERS_WEBHOOK_PRIVATE: "webhooks may reach private and loopback addresses",
  KOERS_WEBHOOK_RESOLVE: "webhook host names are answered without DNS",
  KOERS_WORKER_NODE_TIME: "the worker takes its clock from Node",
};

/** A warning naming the test-only settings that are set, or null. */
export function testOnlyWarning(env: NodeJS.ProcessEnv = process.env): string | null {
  const set = Object.keys(TEST_ONLY).filter((k) => env[k]);
  return set.length ? `warning: test-only settings are on, never use them in production: ${
    set.map((k) => `${k} (${TEST_ONLY[k]})`).join(", ")}` : null;
}

export interface Running {
  /** The line printed once the process is ready. */
  ready: string;
  stop(): Promise<void>;
}

export async function runUntilSignalled(name: string, start: () => Promise<Running>): Promise<void> {
  const log = (line: string) => console.log(`${name}: ${line}`);
  // After SIGHUP the terminal may be gone: a failed write must not end the shutdown early.
  process.stdout.on("error", () => {});
  process.stderr.on("error", () => {});

  let running: Running | null = null;
  let signalled: NodeJS.Signals | null = null;
  let stopping = false;
  const shutDown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    try {
      await running!.stop();
      log("stopped");
      process.exit(0);
    } catch (e) {
      console.error(`${name}: could not stop cleanly: ${(e as Error).message}`);
      process.exit(1);
    }
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    // A signal during start-up is honoured once the start is done, so what started is stopped.
    process.on(signal, () => (running ? void shutDown(signal) : (signalled ??= signal)));
  }

  const warning = testOnlyWarning();
  if (warning) log(warning);
  try {
    running = await start();
  } catch (e) {
    console.error(`${name}: could not start: ${(e as Error).message}`);
    process.exit(1);
  }
  if (signalled) return shutDown(signalled);
  log(running.ready);
  watchNpm(() => void shutDown("SIGTERM"));
}

/**
 * Under `npm start`, npm passes SIGINT and SIGTERM on (the script execs node). When npm itself
 * is killed outright, this process is handed to another parent: it then stops as for SIGTERM,
 * rather than serve on, unowned, with its PostgreSQL.
 */
function watchNpm(stop: () => void): void {
  if (process.env.npm_lifecycle_event !== "start") return;
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) stop(); }, 1000).unref();
}
