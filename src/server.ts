// Starting Koers: a database (DATABASE_URL, or the embedded one), migrations, the REST door
// and the workers. Nothing here keeps state between requests, so more instances scale out.
import type { FastifyInstance } from "fastify";
import type { Runner } from "graphile-worker";
import { leesConfig, type Config } from "./config.ts";
import { startIngebed, type Ingebed } from "./db/embedded.ts";
import { migreer } from "./db/migrate.ts";
import { deurUrl, verbind, type Sql } from "./db/connection.ts";
import { bouwRest } from "./rest.ts";
import { controleerRegistry } from "./db/registry-check.ts";
import { startWorker } from "./worker.ts";

export interface Dienst {
  adres: string;
  adminUrl: string;
  stop(): Promise<void>;
}

/** The administrative database: DATABASE_URL, or the embedded server in the data folder. */
export async function database(config: Config, log: (r: string) => void): Promise<{ url: string; ingebed: Ingebed | null }> {
  if (config.databaseUrl) return { url: config.databaseUrl, ingebed: null };
  const ingebed = await startIngebed(config.dataDir, config.embeddedPgPort, log);
  return { url: ingebed.url, ingebed };
}

export async function start(config: Config = leesConfig(), log: (r: string) => void = () => {}): Promise<Dienst> {
  const { url: adminUrl, ingebed } = await database(config, log);
  let deur: Sql | null = null;
  let app: FastifyInstance | null = null;
  let worker: Runner | null = null;
  const stop = async () => {
    await app?.close();
    await worker?.stop();
    await deur?.end({ timeout: 5 });
    if (ingebed?.eigen) await ingebed.stop();
  };
  try {
    await migreer(adminUrl, { log, deurWachtwoordZetten: !config.doorDatabaseUrl });
    deur = verbind(config.doorDatabaseUrl ?? deurUrl(adminUrl), { now: config.now, naam: "koers-deur" });
    await controleerRegistry(deur);
    app = bouwRest(deur, { bodyLimit: config.bodyLimit });
    const adres = await app.listen({ host: config.host, port: config.port });
    if (config.worker) {
      worker = await startWorker(adminUrl, { now: config.now, concurrency: config.workerConcurrency });
    }
    return { adres, adminUrl, stop };
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
}
