// `koers worker`: only the background worker, for deployments that scale it separately.
// Signals and start-up errors are handled as for `npm start`.
import { readConfig } from "./config.ts";
import { database } from "./db/embedded.ts";
import { migrate } from "./db/migrate.ts";
import { startWorker } from "./worker.ts";
import { runUntilSignalled } from "./lifecycle.ts";

await runUntilSignalled("koers worker", async () => {
  const log = (line: string) => console.log(`koers worker: ${line}`);
  const config = readConfig();
  const { url, embedded } = await database(config, log, "service");
  const stopDatabase = async () => { if (embedded?.ownedByUs) await embedded.stop(); };
  try {
    await migrate(url, { log, setDoorPassword: !config.doorDatabaseUrl });
    const runner = await startWorker(url, { now: config.now, concurrency: config.workerConcurrency, retention: config.retention });
    return {
      ready: "running",
      stop: async () => {
        await runner.stop();
        await stopDatabase();
      },
    };
  } catch (e) {
    await stopDatabase().catch(() => {});
    throw e;
  }
});
