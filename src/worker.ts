// Background work with graphile-worker: inside `npm start` by default, or on its own as
// `koers worker` for deployments that scale it separately. Jobs are queued from SQL in the
// transaction of the change that causes them. A task's name is its file under src/tasks/.
//
// Webhook deliveries wait on other people's servers (up to ten seconds each), so they run in
// a pool of workers of their own (KOERS_WEBHOOK_CONCURRENCY) and never hold up the other
// tasks. New jobs reach the workers by LISTEN/NOTIFY at once; the poll interval only matters
// for jobs that become due later (a retry).
import pg from "pg";
import { run, parseCrontab, type Runner, type TaskList } from "graphile-worker";
import { trimLogs, type Retention } from "./tasks/trim_logs.ts";
import { trimWebhookLog } from "./tasks/trim_webhook_log.ts";
import { deliverWebhook } from "./tasks/deliver_webhook.ts";
import { addressPolicy, type AddressPolicy } from "./webhooks/address.ts";
import { closeConnections } from "./webhooks/deliver.ts";
import { startLiveness } from "./webhooks/liveness.ts";

export interface WebhookWorkerOptions {
  /** Deliveries under way at once (KOERS_WEBHOOK_CONCURRENCY, default 32). */
  concurrency: number;
  /** Private addresses, test-only name resolution (KOERS_WEBHOOK_PRIVATE, KOERS_WEBHOOK_RESOLVE). */
  policy: AddressPolicy;
  /** KOERS_WORKER_NODE_TIME=aan, for tests that move the clock: see deliver_webhook.ts. */
  nodeTime: boolean;
  /** Days the delivery log is kept (KOERS_RETENTION_WEBHOOK_DAYS, default 30). */
  retentionDays: number;
}

export interface WorkerOptions {
  now: string | null;
  concurrency: number;
  retention: Retention;
  /** Read from the environment when not given. */
  webhooks?: WebhookWorkerOptions;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}, got "${v}"`);
  return n;
}

export function webhookOptions(env: NodeJS.ProcessEnv = process.env): WebhookWorkerOptions {
  return {
    concurrency: wholeNumber(env, "KOERS_WEBHOOK_CONCURRENCY", 32, 1),
    policy: addressPolicy(env),
    nodeTime: env.KOERS_WORKER_NODE_TIME === "aan",
    retentionDays: wholeNumber(env, "KOERS_RETENTION_WEBHOOK_DAYS", 30),
  };
}

/** The worker's tasks other than deliveries, by name. */
export function taskList(options: WorkerOptions): TaskList {
  const webhooks = options.webhooks ?? webhookOptions();
  return { trim_logs: trimLogs(options.retention), trim_webhook_log: trimWebhookLog(webhooks.retentionDays) };
}

export const crontab = "0 * * * * trim_logs\n30 * * * * trim_webhook_log\n";

function pool(adminUrl: string, max: number, now: string | null, log: (line: string) => void): pg.Pool {
  const p = new pg.Pool({
    connectionString: adminUrl,
    max,
    // The test clock reaches the workers too.
    ...(now ? { options: `-c koers.nu=${now.replaceAll(" ", "\\ ")}` } : {}),
  });
  // A connection lost while the database shuts down must not crash the process.
  p.on("error", (e) => log(`database connection lost: ${e.message}`));
  p.on("connect", (client) => client.on("error", (e) => log(`database connection lost: ${e.message}`)));
  return p;
}

export async function startWorker(adminUrl: string, options: WorkerOptions): Promise<Runner> {
  const webhooks = options.webhooks ?? webhookOptions();
  const log = (line: string) => console.error(`koers worker: ${line}`);
  // Before any job runs: this process's liveness slot, and the deliveries of workers that
  // died are taken over.
  const liveness = await startLiveness(adminUrl, log);
  await liveness.sweep();

  const mainPool = pool(adminUrl, options.concurrency + 2, options.now, log);
  const deliveryPool = pool(adminUrl, webhooks.concurrency + 2, webhooks.nodeTime ? null : options.now, log);
  const main = await run({
    pgPool: mainPool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList({ ...options, webhooks }),
    parsedCronItems: parseCrontab(crontab),
    useNodeTime: webhooks.nodeTime,
  });
  const deliveries = await run({
    pgPool: deliveryPool,
    concurrency: webhooks.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: { deliver_webhook: deliverWebhook({ policy: webhooks.policy, slot: liveness.slot, nodeTime: webhooks.nodeTime }) },
    parsedCronItems: [],
    useNodeTime: webhooks.nodeTime,
  });
  const promise = Promise.all([main.promise, deliveries.promise]).then(() => {}).finally(async () => {
    closeConnections();
    await liveness.stop();
    await Promise.all([mainPool.end(), deliveryPool.end()]);
  });
  promise.catch(() => {});
  return {
    ...main,
    promise,
    stop: async (reason?: string) => {
      await Promise.all([main.stop(reason), deliveries.stop(reason)]);
      await promise.catch(() => {});
    },
    kill: async (reason?: string) => {
      await Promise.all([main.kill(reason), deliveries.kill(reason)]);
    },
  };
}
