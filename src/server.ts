// Starting Koers: a database (DATABASE_URL, or the embedded one), migrations, the REST door,
// the AI connection (MCP, with its sign-in) and the workers. Nothing here keeps state between requests, so more instances scale out.
import type { FastifyInstance } from "fastify";
import type { Runner } from "graphile-worker";
import { readConfig, type Config } from "./config.ts";
import { database } from "./db/embedded.ts";
import { migrate } from "./db/migrate.ts";
import { checkConnection, doorUrl, connect, rememberServiceAddress, type Sql } from "./db/connection.ts";
import { buildRestDoor } from "./rest.ts";
import { LOOPBACK_NAMES, mountMcp } from "./mcp/mount.ts";
import { startWorker } from "./worker.ts";
import { mountApp } from "./app/routes.ts";

export interface Service {
  address: string;
  adminUrl: string;
  stop(): Promise<void>;
}

/** Listening failed: say which setting to change. */
function listenError(e: unknown, config: Config): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") return new Error(`port ${config.port} on ${config.host} is in use; set PORT to a free port`);
  if (code === "EACCES") return new Error(`may not listen on port ${config.port}; set PORT to a port above 1023`);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new Error(`cannot listen on ${config.host}, not an address of this machine; set HOST`);
  }
  return e as Error;
}

/** Where a client on this machine reaches an address Koers listens on (any interface: loopback). */
function reachableAddress(address: string): string {
  const u = new URL(address);
  if (u.hostname === "0.0.0.0" || u.hostname === "[::]") u.hostname = "127.0.0.1";
  return u.origin;
}

/** The start-up line of the AI connection: the address it announces, and the others it answers to. */
function aiConnectionLine(publicUrl: string | null, listening: string): string {
  const mcp = new URL("/mcp", publicUrl ?? listening);
  if (publicUrl) {
    const plain = mcp.protocol !== "https:" && !LOOPBACK_NAMES.includes(mcp.hostname);
    return `AI connection (MCP) at ${mcp.href} (KOERS_PUBLIC_URL)` +
      (plain ? "; warning: KOERS_PUBLIC_URL is not https, so assistants will not sign in over plain http" : "");
  }
  if (!LOOPBACK_NAMES.includes(mcp.hostname)) return `AI connection (MCP) at ${mcp.href} (KOERS_PUBLIC_URL sets another address)`;
  const other = new URL(mcp);
  other.hostname = mcp.hostname === "localhost" ? "127.0.0.1" : "localhost";
  return `AI connection (MCP) at ${mcp.href}, also as ${other.href} (KOERS_PUBLIC_URL sets another address)`;
}

export async function start(config: Config = readConfig(), log: (line: string) => void = () => {}): Promise<Service> {
  const { url: adminUrl, embedded } = await database(config, log, "service");
  let doorSql: Sql | null = null;
  let appSql: Sql | null = null;
  let app: FastifyInstance | null = null;
  let worker: Runner | null = null;
  const stop = async () => {
    await app?.close();
    await worker?.stop();
    await doorSql?.end({ timeout: 5 });
    await appSql?.end({ timeout: 5 });
    if (embedded?.ownedByUs) await embedded.stop();
  };
  try {
    await migrate(adminUrl, { log, setDoorPassword: !config.doorDatabaseUrl });
    if (config.doorDatabaseUrl) await checkConnection(config.doorDatabaseUrl, "KOERS_DOOR_DATABASE_URL");
    doorSql = connect(config.doorDatabaseUrl ?? await doorUrl(adminUrl), { now: config.now, name: "koers-deur", rateLimit: config.rateLimit,
      publicUrl: config.publicUrl, max: config.doorConnections });
    // The owner's pages act through the CLI's functions (beheer.*), on the administrative connection.
    appSql = connect(adminUrl, { now: config.now, name: "koers-app", max: 4 });
    app = buildRestDoor(doorSql, { bodyLimit: config.bodyLimit });
    let listening = "";
    await mountMcp(app, doorSql, { publicUrl: () => config.publicUrl ?? listening, loopbackAliases: !config.publicUrl || LOOPBACK_NAMES.includes(new URL(config.publicUrl).hostname),
      allowedOrigins: config.allowedOrigins });
    await mountApp(app, appSql, { publicUrl: () => config.publicUrl ?? listening });
    const address = await app.listen({ host: config.host, port: config.port }).catch((e) => { throw listenError(e, config); });
    listening = reachableAddress(address);
    log(aiConnectionLine(config.publicUrl, listening));
    await rememberServiceAddress(adminUrl, config.publicUrl ?? listening);
    if (config.worker) {
      worker = await startWorker(adminUrl, { now: config.now, concurrency: config.workerConcurrency, retention: config.retention });
    }
    return { address, adminUrl, stop };
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
}
