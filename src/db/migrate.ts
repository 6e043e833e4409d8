// Brings a database up to date: the tables (node-pg-migrate, migrations/), graphile-worker's
// schema, then the code in db/ (functions, policies, triggers), re-applied as a whole when it
// changed. Safe to run from several instances at once: each step takes a lock.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { doorPassword, doorRoleName, doorSecretKey } from "./connection.ts";
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
  /**
   * Ensure this database's door login role and set its password (off when
   * KOERS_DOOR_DATABASE_URL names a role provisioned by hand).
   */
  setDoorPassword?: boolean;
}

/** koers_door, the role policies and grants target, before the tables mention it. */
async function ensureDoorGroup(sql: postgres.Sql): Promise<void> {
  await sql.unsafe(`do $$ begin
    if not exists (select 1 from pg_roles where rolname = 'koers_door') then
      create role koers_door nologin nosuperuser nocreatedb nocreaterole noinherit nobypassrls;
    end if;
  exception when duplicate_object or unique_violation then null; -- another database's migrate won
  end $$`);
}

/**
 * This database's door login role: koers_door_<hash of the database name>, a member of
 * koers_door and nothing else, owning nothing, with a password derived from the secret stored
 * in the database (created here on first use). Idempotent; also run for a database cloned
 * from a template, which brings the secret but not a role. Returns the door URL.
 */
export async function ensureDoorRole(adminUrl: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await ensureDoorGroup(sql);
    const [group] = await sql`select rolcanlogin from pg_roles where rolname = 'koers_door'`;
    // Koers before 0.2 let koers_door itself log in, with a password one database could reset
    // under another; now it never logs in.
    if (group!.rolcanlogin) await sql.unsafe("alter role koers_door nologin password null");
    const { role, password } = await sql.begin(async (tx) => {
      // Instances of one database started together change the same role: one at a time (two
      // ALTER ROLEs at once fail with "tuple concurrently updated").
      await tx`select pg_advisory_xact_lock(hashtext('koers:door-role'))`;
      await tx`insert into app_private.instellingen (sleutel, waarde)
                values (${doorSecretKey}, ${crypto.randomBytes(32).toString("base64url")})
                on conflict (sleutel) do nothing`;
      const [{ db, secret }] = await tx`select current_database() as db,
        (select waarde from app_private.instellingen where sleutel = ${doorSecretKey}) as secret` as
        unknown as [{ db: string; secret: string }];
      const role = doorRoleName(db);
      const password = doorPassword(secret, role);
      // Role statements take no parameters; the name is hex and the password base64url, so
      // quoting them is safe.
      await tx.unsafe(`do $$ begin
        if not exists (select 1 from pg_roles where rolname = '${role}') then
          create role ${role} login inherit nosuperuser nocreatedb nocreaterole nobypassrls noreplication;
        end if;
      exception when duplicate_object or unique_violation then null; -- a parallel start won
      end $$`);
      // Only a superuser may name the superuser, replication and BYPASSRLS attributes in ALTER
      // ROLE, even to switch them off; an administrative role that is none (with CREATEROLE)
      // sets the password, and switches them off only when someone switched them on.
      await tx.unsafe(`alter role ${role} login inherit password '${password}'`);
      await tx.unsafe(`do $$ begin
        if exists (select 1 from pg_roles where rolname = '${role}'
                   and (rolsuper or rolcreatedb or rolcreaterole or rolbypassrls or rolreplication)) then
          alter role ${role} nosuperuser nocreatedb nocreaterole nobypassrls noreplication;
        end if;
      end $$`);
      await tx.unsafe(`grant koers_door to ${role}`);
      return { role, password };
    });
    const u = new URL(adminUrl);
    u.username = role;
    u.password = password;
    return u.toString();
  } finally {
    await sql.end();
  }
}

/** The last of graphile-worker's own migrations (its sql/NNNNNN.sql files). */
function latestWorkerMigration(): number {
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve("graphile-worker")), "../sql");
  return Math.max(...fs.readdirSync(dir).filter((f) => /^\d+\.sql$/.test(f)).map((f) => parseInt(f, 10)));
}

/**
 * Whether migrate would change nothing: every migration applied (graphile-worker's too), db/
 * applied as it is now, and (setDoorPassword) the door role made. One query, without loading
 * the migration tools, so a CLI command on a current database starts quickly.
 */
export async function upToDate(adminUrl: string, options: MigrateOptions = {}): Promise<boolean> {
  const wanted = fs.readdirSync(migrationsDir).filter((f) => f.endsWith(".sql")).map((f) => f.slice(0, -4)).sort();
  const { hash } = dbSources(JSON.stringify(referenceData()));
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [r] = await sql`select
      array(select name::text from public.pgmigrations order by name) as applied,
      (select max(id) from graphile_worker.migrations) as worker,
      (select waarde from app_private.instellingen where sleutel = 'db_hash') as hash,
      current_database() as db`;
    const role = doorRoleName(r!.db);
    const [door] = await sql`select exists (select 1 from pg_roles where rolname = ${role}) as made`;
    return JSON.stringify(r!.applied) === JSON.stringify(wanted) && r!.worker === latestWorkerMigration() && r!.hash === hash &&
      (!(options.setDoorPassword ?? true) || door!.made);
  } catch {
    return false; // not migrated at all (a table is missing)
  } finally {
    await sql.end();
  }
}

export async function migrate(adminUrl: string, options: MigrateOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  // The migration tools are large; loaded only when migrating.
  const [{ runner }, { runMigrations }] = await Promise.all([import("node-pg-migrate"), import("graphile-worker")]);
  const first = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await ensureDoorGroup(first);
  } finally {
    await first.end();
  }
  log("migrating tables (migrations/)");
  await runner({
    databaseUrl: adminUrl,
    dir: migrationsDir,
    direction: "up",
    migrationsTable: "pgmigrations",
    checkOrder: true,
    // Instances started together: the second waits for the first instead of failing.
    advisoryLockMode: "wait",
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
  } finally {
    await sql.end();
  }
  if (options.setDoorPassword ?? true) await ensureDoorRole(adminUrl);
}
