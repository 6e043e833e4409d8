// `npm start`: with no configuration, an embedded PostgreSQL in ./data, migrated, served on
// http://127.0.0.1:3000. Ctrl-C shuts down cleanly.
import { readConfig } from "./config.ts";
import { start } from "./server.ts";

const log = (line: string) => console.log(`koers: ${line}`);

try {
  const config = readConfig();
  const service = await start(config, log);
  log(`serving on ${service.address} (index: ${service.address}/api/v1)${config.worker ? ", worker running" : ""}`);
  let stopping = false;
  const shutDown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    try {
      await service.stop();
      log("stopped");
      process.exit(0);
    } catch (e) {
      console.error(e);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutDown("SIGINT"));
  process.on("SIGTERM", () => void shutDown("SIGTERM"));
} catch (e) {
  console.error(`koers: could not start: ${(e as Error).message}`);
  process.exit(1);
}
