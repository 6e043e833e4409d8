// Background work with graphile-worker: inside `npm start` by default, or on its own as
// `koers worker` for deployments that scale it separately. Jobs are queued from SQL in the
// transaction of the change that causes them. A task's name is its file under src/tasks/.
//
// Webhook deliveries wait on other people's servers (up to ten seconds each), so they run in
// a pool of workers of their own (KOERS_WEBHOOK_CONCURRENCY) and never hold up the other
// tasks. New jobs reach the workers by LISTEN/NOTIFY at once; the poll interval only matters
// for jobs that become due later (a retry).
import { EventEmitter } from "node:events";
import pg from "pg";
import { consoleLogFactory, Logger, run, parseCrontab, type Runner, type TaskList, type WorkerEvents } from "graphile-worker";
import { trimLogs, type Retention } from "./tasks/trim_logs.ts";
import { extractAttachmentText } from "./tasks/extract_attachment_text.ts";
import { trimWebhookLog } from "./tasks/trim_webhook_log.ts";
import { deliverWebhook } from "./tasks/deliver_webhook.ts";
import { warehouseWatch } from "./tasks/warehouse_watch.ts";
import { addressPolicy, type AddressPolicy } from "./webhooks/address.ts";
import { closeConnections } from "./webhooks/deliver.ts";
import { startLiveness, type Liveness } from "./webhooks/liveness.ts";

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
  return { trim_logs: trimLogs(options.retention), trim_webhook_log: trimWebhookLog(webhooks.retentionDays),
    extract_attachment_text: extractAttachmentText(), warehouse_watch: warehouseWatch() };
}

export const crontab = "0 * * * * trim_logs\n30 * * * * trim_webhook_log\n* * * * * warehouse_watch\n";

/**
 * The startup options of the workers' connections: no JIT compilation, as on the doors' (see
 * src/db/connection.ts: a statement estimated past jit_above_cost can spend far longer compiling
 * than running), and the test clock, which reaches the workers too.
 */
function workerConnectionOptions(now: string | null): string {
  return ["-c jit=off", ...(now ? [`-c koers.nu=${now.replaceAll(" ", "\\ ")}`] : [])].join(" ");
}

/** A pool of the workers' connections (exported for its test). */
export function pool(adminUrl: string, max: number, now: string | null, log: (line: string) => void, stopping: () => boolean): pg.Pool {
  const p = new pg.Pool({ connectionString: adminUrl, max, options: workerConnectionOptions(now) });
  // A connection lost while the database shuts down must not crash the process; one lost
  // while the worker stops is expected and not worth a line.
  const lost = (e: Error) => { if (!stopping()) log(`database connection lost: ${e.message}`); };
  p.on("error", lost);
  p.on("connect", (client) => client.on("error", lost));
  return p;
}

/**
 * Ends a pool and waits until its connections are closed, not only asked to close (pg-pool's
 * end() resolves before that), so a database stopped next finds no connection of ours to end.
 */
async function endPool(p: pg.Pool): Promise<void> {
  let open = p.totalCount;
  if (open === 0) return p.end();
  const closed = new Promise<void>((resolve) => p.on("remove", () => { if (--open <= 0) resolve(); }));
  await p.end();
  await Promise.race([closed, new Promise((r) => setTimeout(r, 2000).unref())]);
}

/**
 * From the moment graphile-worker creates its worker pool, the connections of `p` wait until
 * that pool is registered under this process's liveness slot: no job is ever locked by a pool
 * that the sweep of a dead worker could not release.
 */
function registerPool(p: pg.Pool, liveness: Liveness, log: (line: string) => void): WorkerEvents {
  const events = new EventEmitter() as WorkerEvents;
  let gate: Promise<void> | null = null;
  const connect = p.connect.bind(p) as (cb?: unknown) => unknown;
  (p as { connect: unknown }).connect = (cb?: (e: Error | undefined, ...rest: unknown[]) => void) => {
    if (!gate) return connect(cb);
    if (cb) {
      void gate.then(() => connect(cb), (e: Error) => cb(e));
      return undefined;
    }
    return gate.then(() => connect());
  };
  events.on("pool:create", ({ workerPool }) => {
    gate = liveness.register(workerPool.id).catch((e: Error) => log(`could not register worker pool ${workerPool.id}: ${e.message}`));
  });
  return events;
}

// One line per delivered job would be noise at a thousand deliveries a second; failures,
// switch-offs and graphile-worker's warnings and errors are logged.
const deliveryLogger = new Logger((scope) => {
  const log = consoleLogFactory(scope);
  return (level, message) => {
    if (level === "info" && message.startsWith("Completed task")) return;
    log(level, message);
  };
});

export async function startWorker(adminUrl: string, options: WorkerOptions): Promise<Runner> {
  const webhooks = options.webhooks ?? webhookOptions();
  const log = (line: string) => console.error(`koers worker: ${line}`);
  // Before any job runs: this process's liveness slot, and the deliveries of workers that
  // died are taken over.
  const liveness = await startLiveness(adminUrl, log);
  await liveness.sweep();

  let stopping = false;
  const mainPool = pool(adminUrl, options.concurrency + 2, options.now, log, () => stopping);
  const deliveryPool = pool(adminUrl, webhooks.concurrency + 2, webhooks.nodeTime ? null : options.now, log, () => stopping);
  const main = await run({
    pgPool: mainPool,
    events: registerPool(mainPool, liveness, log),
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList({ ...options, webhooks }),
    parsedCronItems: parseCrontab(crontab),
    useNodeTime: webhooks.nodeTime,
  });
  const deliveries = await run({
    pgPool: deliveryPool,
    events: registerPool(deliveryPool, liveness, log),
    logger: deliveryLogger,
    concurrency: webhooks.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: {
      deliver_webhook: deliverWebhook({ pool: deliveryPool, policy: webhooks.policy, slot: liveness.ready, nodeTime: webhooks.nodeTime }),
    },
    parsedCronItems: [],
    useNodeTime: webhooks.nodeTime,
    // A burst is fetched and completed in batches: fewer round trips per delivery. Jobs in the
    // local queue of a process that dies are released by the sweep like its running ones.
    preset: { worker: { localQueue: { size: 2 * webhooks.concurrency }, completeJobBatchDelay: 0 } },
  });
  const promise = Promise.all([main.promise, deliveries.promise]).then(() => {}).finally(async () => {
    closeConnections();
    stopping = true;
    await liveness.stop();
    await Promise.all([endPool(mainPool), endPool(deliveryPool)]);
  });
  promise.catch(() => {});
  return {
    ...main,
    promise,
    stop: async (reason?: string) => {
      stopping = true;
      await Promise.all([main.stop(reason), deliveries.stop(reason)]);
      await promise.catch(() => {});
    },
    kill: async (reason?: string) => {
      await Promise.all([main.kill(reason), deliveries.kill(reason)]);
    },
  };
}
