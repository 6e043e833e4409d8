// Background work with graphile-worker: inside `npm start` by default, or on its own as
// `koers worker` for deployments that scale it separately. Jobs are queued from SQL in the
// transaction of the change that causes them. A task's name is its file under src/tasks/.
import pg from "pg";
import { run, parseCrontab, type Runner, type TaskList } from "graphile-worker";
import { trimLogs, type Retention } from "./tasks/trim_logs.ts";
import { extractAttachmentText } from "./tasks/extract_attachment_text.ts";

export interface WorkerOptions {
  now: string | null;
  concurrency: number;
  retention: Retention;
}

/** The worker's tasks, by name. */
export function taskList(options: WorkerOptions): TaskList {
  return { trim_logs: trimLogs(options.retention), extract_attachment_text: extractAttachmentText() };
}

export const crontab = "0 * * * * trim_logs\n";

export async function startWorker(adminUrl: string, options: WorkerOptions): Promise<Runner> {
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
    taskList: taskList(options),
    parsedCronItems: parseCrontab(crontab),
  });
  runner.promise.finally(() => pgPool.end()).catch(() => {});
  return runner;
}
