// `koers worker`: only the background worker, for deployments that scale it separately.
import { leesConfig } from "./config.ts";
import { database } from "./server.ts";
import { migreer } from "./db/migrate.ts";
import { startWorker } from "./worker.ts";

const log = (r: string) => console.log(`koers worker: ${r}`);
const config = leesConfig();
const { url, ingebed } = await database(config, log);
await migreer(url, { log, deurWachtwoordZetten: !config.doorDatabaseUrl });
const runner = await startWorker(url, { now: config.now, concurrency: config.workerConcurrency });
log("running");
const stop = async () => {
  await runner.stop();
  if (ingebed?.eigen) await ingebed.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
