// Background work with graphile-worker: inside `npm start` by default, or on its own as
// `koers worker` for deployments that scale it separately. Jobs are queued from SQL in the
// transaction of the change that causes them. A task's name is its file under src/tasks/.
import pg from "pg";
import { run, parseCrontab, type Runner, type TaskList } from "graphile-worker";
import bevestigcodes_opruimen from "./tasks/bevestigcodes_opruimen.ts";

/** The worker's tasks, by name (each named after its SQL job, so the name stays Dutch). */
export const taskList: TaskList = { bevestigcodes_opruimen };

export const crontab = "0 * * * * bevestigcodes_opruimen\n";

export async function startWorker(adminUrl: string, options: { now: string | null; concurrency: number }): Promise<Runner> {
  const pgPool = new pg.Pool({
    connectionString: adminUrl,
    max: options.concurrency + 2,
    // The test clock reaches the workers too.
    ...(options.now ? { options: `-c koers.nu=${options.now.replaceAll(" ", "\\ ")}` } : {}),
  });
  // A connection lost while the database shuts down must not crash the process.
  pgPool.on("error", (e) => console.error(`koers worker: database connection lost: ${e.message}`));
  const runner = await run({
    pgPool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList,
    parsedCronItems: parseCrontab(crontab),
  });
  runner.promise.finally(() => pgPool.end()).catch(() => {});
  return runner;
}
