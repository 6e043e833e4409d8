// `koers worker`: only the background worker, for deployments that scale it separately.
import { readConfig } from "./config.ts";
import { database } from "./server.ts";
import { migrate } from "./db/migrate.ts";
import { startWorker } from "./worker.ts";

const log = (line: string) => console.log(`koers worker: ${line}`);
const config = readConfig();
const { url, embedded } = await database(config, log);
await migrate(url, { log, setDoorPassword: !config.doorDatabaseUrl });
const runner = await startWorker(url, { now: config.now, concurrency: config.workerConcurrency, retention: config.retention });
log("running");
const stop = async () => {
  await runner.stop();
  if (embedded?.ownedByUs) await embedded.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
