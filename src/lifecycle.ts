// Running a long-lived process (`npm start`, `koers worker`) until a signal: SIGINT (Ctrl-C),
// SIGTERM (service managers, docker stop) and SIGHUP (the terminal closed) all shut down
// cleanly and exit 0. A start that fails prints one line naming what to change, no stack.
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

  try {
    running = await start();
  } catch (e) {
    console.error(`${name}: could not start: ${(e as Error).message}`);
    process.exit(1);
  }
  if (signalled) return shutDown(signalled);
  log(running.ready);
}
