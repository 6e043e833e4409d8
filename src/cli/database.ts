// The database a command works in: DATABASE_URL, or the embedded PostgreSQL (the running
// service's, or one started for the command and stopped after it), brought up to date first.
// Loaded only by commands that need a database, so `koers --help` stays quick.
import type postgres from "postgres";

export type Db = postgres.Sql;

export async function withDatabase<T>(work: (sql: Db) => Promise<T>, onNotice: (message: string) => void = () => {}): Promise<T> {
  const [{ readConfig }, { database }, { migrate, upToDate }, { sessionSettings }, { default: pg }] = await Promise.all([
    import("../config.ts"), import("../db/embedded.ts"), import("../db/migrate.ts"), import("../db/connection.ts"), import("postgres")]);
  const config = readConfig();
  const { url, embedded } = await database(config, (line) => process.stderr.write(`koers: ${line}\n`));
  try {
    const options = { setDoorPassword: !config.doorDatabaseUrl };
    if (!(await upToDate(url, options))) await migrate(url, options);
    const sql = pg(url, { max: 1, onnotice: (n) => onNotice(String(n.message)), connection: sessionSettings(config.now) });
    try {
      return await work(sql);
    } finally {
      await sql.end();
    }
  } finally {
    if (embedded?.ownedByUs) await embedded.stop();
  }
}

/** A command's one row: `select <fn>(...) as r`, its r. */
export async function one(query: Promise<readonly { r?: unknown }[]>): Promise<any> {
  return (await query)[0]!.r;
}

/** The database's progress lines on a large import. */
export function progress(message: string) {
  if (message.startsWith("import:")) process.stderr.write(`koers: ${message}\n`);
}
