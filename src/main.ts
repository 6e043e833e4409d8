// `npm start`: with no configuration, an embedded PostgreSQL in ./data, migrated, served on
// http://127.0.0.1:3000. Ctrl-C (or SIGTERM, SIGHUP) shuts down cleanly.
import { readConfig } from "./config.ts";
import { start } from "./server.ts";
import { runUntilSignalled } from "./lifecycle.ts";

await runUntilSignalled("koers", async () => {
  const config = readConfig();
  const service = await start(config, (line) => console.log(`koers: ${line}`));
  return {
    ready: `serving on ${service.address} (index: ${service.address}/api/v1)${config.worker ? ", worker running" : ""}`,
    stop: service.stop,
  };
});
