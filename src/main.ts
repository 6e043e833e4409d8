// `npm start`: with no configuration, an embedded PostgreSQL in ./data, migrated, served on
// http://127.0.0.1:3000. Ctrl-C shuts down cleanly.
import { leesConfig } from "./config.ts";
import { start } from "./server.ts";

const log = (r: string) => console.log(`koers: ${r}`);

try {
  const config = leesConfig();
  const dienst = await start(config, log);
  log(`serving on ${dienst.adres} (index: ${dienst.adres}/api/v1)${config.worker ? ", worker running" : ""}`);
  let bezig = false;
  const afsluiten = async (signaal: string) => {
    if (bezig) return;
    bezig = true;
    log(`${signaal}: shutting down`);
    try {
      await dienst.stop();
      log("stopped");
      process.exit(0);
    } catch (e) {
      console.error(e);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void afsluiten("SIGINT"));
  process.on("SIGTERM", () => void afsluiten("SIGTERM"));
} catch (e) {
  console.error(`koers: could not start: ${(e as Error).message}`);
  process.exit(1);
}
