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
import { deurWachtwoord } from "./connection.ts";

const wortel = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const migratieMap = path.join(wortel, "migrations");
export const dbMap = path.join(wortel, "db");

/** The db/ sources in apply order, with a hash of the whole. */
export function dbBronnen(): { bestanden: { naam: string; sql: string }[]; hash: string } {
  const bestanden = fs.readdirSync(dbMap).filter((f) => f.endsWith(".sql")).sort()
    .map((naam) => ({ naam, sql: fs.readFileSync(path.join(dbMap, naam), "utf8") }));
  const h = crypto.createHash("sha256");
  for (const b of bestanden) h.update(b.naam).update("\0").update(b.sql).update("\0");
  return { bestanden, hash: h.digest("hex") };
}

export interface MigreerOpties {
  log?: (regel: string) => void;
  /** Set the koers_door password derived from the URL (off when the door URL is given). */
  deurWachtwoordZetten?: boolean;
}

export async function migreer(adminUrl: string, opties: MigreerOpties = {}): Promise<void> {
  const log = opties.log ?? (() => {});
  log("migrating tables (migrations/)");
  await runner({
    databaseUrl: adminUrl,
    dir: migratieMap,
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
    const { bestanden, hash } = dbBronnen();
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext('koers:db'))`;
      const [huidig] = await tx`select waarde from app_private.instellingen where sleutel = 'db_hash'`;
      if (huidig?.waarde === hash) {
        log("db/ is up to date");
        return;
      }
      for (const b of bestanden) {
        log(`applying db/${b.naam}`);
        try {
          await tx.unsafe(b.sql);
        } catch (e) {
          throw new Error(`db/${b.naam}: ${(e as Error).message}`);
        }
      }
      await tx`insert into app_private.instellingen (sleutel, waarde) values ('db_hash', ${hash})
               on conflict (sleutel) do update set waarde = excluded.waarde`;
    });
    if (opties.deurWachtwoordZetten ?? true) {
      // ALTER ROLE takes no parameters; the password is base64url, so quoting is safe.
      await sql.unsafe(`alter role koers_door password '${deurWachtwoord(adminUrl)}'`);
    }
  } finally {
    await sql.end();
  }
}
