// Brings a database up to date: the tables (node-pg-migrate, migrations/), graphile-worker's
// schema, then the code in db/ (functions, policies, triggers), re-applied as a whole when it
// changed. Safe to run from several instances at once: each step takes a lock.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runner } from "node-pg-migrate";
import { runMigrations } from "graphile-worker";
import postgres from "postgres";
import { doorPassword } from "./connection.ts";
import { referenceData, writeReferenceData } from "./reference-data.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const migrationsDir = path.join(root, "migrations");
export const dbDir = path.join(root, "db");

/** The db/ sources in apply order, with a hash of the whole and of the reference data. */
export function dbSources(referenceJson: string): { files: { name: string; sql: string }[]; hash: string } {
  const files = fs.readdirSync(dbDir).filter((f) => f.endsWith(".sql")).sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dbDir, name), "utf8") }));
  const h = crypto.createHash("sha256").update(referenceJson).update("\0");
  for (const f of files) h.update(f.name).update("\0").update(f.sql).update("\0");
  return { files, hash: h.digest("hex") };
}

export interface MigrateOptions {
  log?: (line: string) => void;
  /** Set the koers_door password derived from the URL (off when the door URL is given). */
  setDoorPassword?: boolean;
}

export async function migrate(adminUrl: string, options: MigrateOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  log("migrating tables (migrations/)");
  await runner({
    databaseUrl: adminUrl,
    dir: migrationsDir,
    direction: "up",
    migrationsTable: "pgmigrations",
    checkOrder: true,
    log: () => {},
    logger: { debug: () => {}, info: () => {}, warn: (m: string) => log(m), error: (m: string) => log(m) },
  });
  log("migrating graphile-worker");
  await runMigrations({ connectionString: adminUrl, logger: undefined });

  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const { files, hash } = dbSources(JSON.stringify(referenceData()));
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext('koers:db'))`;
      const [current] = await tx`select waarde from app_private.instellingen where sleutel = 'db_hash'`;
      if (current?.waarde === hash) {
        log("db/ is up to date");
        return;
      }
      log("writing reference data (registry, value lists, fout codes)");
      await writeReferenceData(tx);
      for (const f of files) {
        log(`applying db/${f.name}`);
        try {
          await tx.unsafe(f.sql);
        } catch (e) {
          throw new Error(`db/${f.name}: ${(e as Error).message}`);
        }
      }
      await tx`insert into app_private.instellingen (sleutel, waarde) values ('db_hash', ${hash})
               on conflict (sleutel) do update set waarde = excluded.waarde`;
    });
    if (options.setDoorPassword ?? true) {
      // ALTER ROLE takes no parameters; the password is base64url, so quoting is safe.
      await sql.unsafe(`alter role koers_door password '${doorPassword(adminUrl)}'`);
    }
  } finally {
    await sql.end();
  }
}
