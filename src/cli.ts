// The `koers` command line: running the service and the worker, and what the interface says
// happens "in the app" (organisations, people, keys, door switches, section releases, the log).
// Every command takes --json for scripts; errors go to stderr with a non-zero exit.
import crypto from "node:crypto";
import { parseArgs, promisify } from "node:util";
import postgres from "postgres";
import { readConfig } from "./config.ts";
import { database } from "./server.ts";
import { migrate } from "./db/migrate.ts";
import { sessionSettings } from "./db/connection.ts";
import { createApiKey } from "./api-key.ts";
import { values } from "./choices.ts";

const HELP = `koers: goals, KPIs and tasks for EOS and Scaling Up companies

Usage:
  koers serve                                   run the service (same as npm start)
  koers worker                                  run only the background worker
  koers migrate                                 bring the database up to date
  koers org create --naam N [--tijdzone TZ]
  koers user create --org O --naam N --email E --rol R [--functietitel T] [--team NAAM] [--wachtwoord P]
  koers key create --org O --user U             prints the key once
  koers key revoke --key-id K
  koers door set --org O --door rest|mcp --aan|--uit [--alleen-lezen|--schrijven]
  koers section release|withdraw --org O SECTION...
                                                sections: ${values("sectie").join(" ")}
  koers log --org O [--limit N]
  koers taak klaar --org O --nummer N [--user U]          tick a task off
  koers prioriteit afronden --org O --id P [--user U]     complete a priority
  koers kpi doel --org O --kpi K --kwartaal Q3-2026 --doel N
  koers kernresultaat toevoegen --org O --prioriteit P --titel T --doel N [--start S]
  koers kernresultaat bijwerken --org O --id K --waarde N

O is an organisation id or exact name; U a user id or e-mail address; R one of
${values("rol").join(", ")}. Add --json to any command for machine-readable output.
Database: DATABASE_URL, or the embedded PostgreSQL in KOERS_DATA_DIR (default ./data).`;

class UsageError extends Error {}

const OPTIONS = {
  json: { type: "boolean" }, help: { type: "boolean", short: "h" },
  naam: { type: "string" }, tijdzone: { type: "string" }, org: { type: "string" }, email: { type: "string" },
  rol: { type: "string" }, functietitel: { type: "string" }, team: { type: "string" },
  wachtwoord: { type: "string" }, user: { type: "string" }, "key-id": { type: "string" },
  door: { type: "string" }, aan: { type: "boolean" }, uit: { type: "boolean" },
  "alleen-lezen": { type: "boolean" }, schrijven: { type: "boolean" }, limit: { type: "string" },
  nummer: { type: "string" }, id: { type: "string" }, kpi: { type: "string" }, kwartaal: { type: "string" },
  doel: { type: "string" }, prioriteit: { type: "string" }, titel: { type: "string" }, start: { type: "string" },
  waarde: { type: "string" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function requireOption(v: Values, name: keyof Values): string {
  const value = v[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

function numberOption(v: Values, name: keyof Values, whole = false): number {
  const value = requireOption(v, name);
  const n = Number(value);
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be a ${whole ? "whole " : ""}number, got "${value}"`);
  }
  return n;
}

function uuidOption(v: Values, name: keyof Values): string {
  const value = requireOption(v, name);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw new UsageError(`--${name} must be an id (uuid)`);
  return value;
}

async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const derived = (await promisify(crypto.scrypt)(password, salt, 32)) as Buffer;
  return `scrypt$16384$8$1$${salt.toString("base64url")}$${derived.toString("base64url")}`;
}

type Db = postgres.Sql;

async function withDatabase<T>(work: (sql: Db) => Promise<T>): Promise<T> {
  const config = readConfig();
  const { url, embedded } = await database(config, (line) => process.stderr.write(`koers: ${line}\n`));
  try {
    await migrate(url, { setDoorPassword: !config.doorDatabaseUrl });
    const sql = postgres(url, { max: 1, onnotice: () => {}, connection: sessionSettings(config.now) });
    try {
      return await work(sql);
    } finally {
      await sql.end();
    }
  } finally {
    if (embedded?.ownedByUs) await embedded.stop();
  }
}

function print(json: boolean, data: unknown, text: string) {
  console.log(json ? JSON.stringify(data, null, 2) : text);
}

async function runCommand(args: string[]): Promise<void> {
  const { values: v, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const [group, action, ...rest] = positionals;
  const json = v.json ?? false;
  if (v.help || !group) {
    console.log(HELP);
    return;
  }
  const command = `${group} ${action ?? ""}`.trim();
  switch (command) {
    case "serve":
      await import("./main.ts");
      return;
    case "worker":
      await import("./worker-main.ts");
      return;
    case "migrate":
      await withDatabase(async () => {});
      print(json, { gemigreerd: true }, "database is up to date");
      return;
    case "org create": {
      const name = requireOption(v, "naam");
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.org_aanmaken(${name}, ${v.tijdzone ?? "Europe/Amsterdam"}) as r`)[0]!.r);
      print(json, r, `organisation created: ${r.naam} (org_id ${r.org_id})`);
      return;
    }
    case "user create": {
      const [org, name, email, role] = [requireOption(v, "org"), requireOption(v, "naam"), requireOption(v, "email"), requireOption(v, "rol")];
      const hash = v.wachtwoord ? await hashPassword(v.wachtwoord) : null;
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.lid_aanmaken(beheer.org(${org}), ${name}, ${email}, ${role},
                                   ${v.functietitel ?? null}, ${v.team ?? null}, ${hash}) as r`)[0]!.r);
      print(json, r, `user created: ${r.naam} <${r.email}> as ${r.rol} (user_id ${r.user_id})`);
      return;
    }
    case "key create": {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      const apiKey = createApiKey();
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.sleutel_aanmaken(o.id, beheer.lid(o.id, ${user}), ${apiKey.hash}, ${apiKey.hint}) as r
        from (select beheer.org(${org}) as id) o`)[0]!.r);
      print(json, { ...r, sleutel: apiKey.key },
        `API key (shown once, store it now):\n${apiKey.key}\nkey_id ${r.key_id}`);
      return;
    }
    case "key revoke": {
      const id = requireOption(v, "key-id");
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError("--key-id must be a key id (uuid)");
      const r = await withDatabase(async (sql) => (await sql`select beheer.sleutel_intrekken(${id}) as r`)[0]!.r);
      print(json, r, `key ${r.key_id} revoked`);
      return;
    }
    case "door set": {
      const [org, door] = [requireOption(v, "org"), requireOption(v, "door")];
      if (v.aan === v.uit) throw new UsageError("give exactly one of --aan and --uit");
      if (v["alleen-lezen"] && v.schrijven) throw new UsageError("give at most one of --alleen-lezen and --schrijven");
      const readOnly = v["alleen-lezen"] ? true : v.schrijven ? false : null;
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.koppeling_zetten(beheer.org(${org}), ${door}, ${v.aan ?? false}, ${readOnly}) as r`)[0]!.r);
      print(json, r, `door ${r.door}: ${r.aan ? "on" : "off"}${r.alleen_lezen ? ", read only" : ""}`);
      return;
    }
    case "section release":
    case "section withdraw": {
      const org = requireOption(v, "org");
      if (rest.length === 0) throw new UsageError("name at least one section");
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.secties_zetten(beheer.org(${org}), ${rest}::text[], ${action === "release"}) as r`)[0]!.r);
      print(json, r, Object.entries(r).map(([section, on]) => `${section}: ${on ? "released" : "withdrawn"}`).join("\n"));
      return;
    }
    case "log": {
      const org = requireOption(v, "org");
      const limit = v.limit === undefined ? 50 : Number(v.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number");
      const rows = await withDatabase(async (sql) =>
        (await sql`select r from beheer.log(beheer.org(${org}), ${limit}) r`).map((x) => x.r));
      print(json, rows, rows.map((r) =>
        `${new Date(r.tijdstip).toISOString()}  ${r.door.padEnd(4)} ${String(r.status).padEnd(3)} ` +
        `${(r.fout_code ?? "").padEnd(22)} ${r.operatie}  ${r.duur_ms ?? ""} ms${r.verzoek_id ? `  request ${r.verzoek_id}` : ""}`)
        .join("\n") || "(no calls)");
      return;
    }
    case "taak klaar": {
      const [org, taskNumber] = [requireOption(v, "org"), numberOption(v, "nummer", true)];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.taak_afvinken(beheer.org(${org}), ${taskNumber}, ${v.user ?? null}) as r`)[0]!.r);
      print(json, r, `task #${r.nummer} ${r.omschrijving}: ${r.stand}`);
      return;
    }
    case "prioriteit afronden": {
      const [org, id] = [requireOption(v, "org"), uuidOption(v, "id")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.prioriteit_afronden(beheer.org(${org}), ${id}, ${v.user ?? null}) as r`)[0]!.r);
      print(json, r, `priority completed: ${r.titel}`);
      return;
    }
    case "kpi doel": {
      const [org, kpi, quarter, target] = [requireOption(v, "org"), uuidOption(v, "kpi"), requireOption(v, "kwartaal"), numberOption(v, "doel")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.kpi_kwartaaldoel_zetten(beheer.org(${org}), ${kpi}, ${quarter}, ${target}) as r`)[0]!.r);
      print(json, r, `${r.naam}: target ${r.kwartaaldoel} in ${r.kwartaal}, light ${r.stoplicht ?? "none yet"}`);
      return;
    }
    case "kernresultaat toevoegen": {
      const [org, priority, title, target] = [requireOption(v, "org"), uuidOption(v, "prioriteit"), requireOption(v, "titel"), numberOption(v, "doel")];
      const start = v.start === undefined ? 0 : numberOption(v, "start");
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.kernresultaat_toevoegen(beheer.org(${org}), ${priority}, ${title}, ${target}, ${start}) as r`)[0]!.r);
      print(json, r, `key result added (id ${r.id}); ${r.prioriteit.titel} is ${r.prioriteit.stand}`);
      return;
    }
    case "kernresultaat bijwerken": {
      const [org, id, value] = [requireOption(v, "org"), uuidOption(v, "id"), numberOption(v, "waarde")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.kernresultaat_bijwerken(beheer.org(${org}), ${id}, ${value}) as r`)[0]!.r);
      print(json, r, `key result at ${r.waarde}; ${r.prioriteit.titel}: ${r.prioriteit.voortgang}% (${r.prioriteit.stand})`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

try {
  await runCommand(process.argv.slice(2));
} catch (e) {
  const err = e as Error & { code?: string; detail?: string };
  if (e instanceof UsageError || err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" || err.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    console.error(`koers: ${err.message}\nRun koers --help for usage.`);
    process.exit(2);
  }
  // Refusals from SQL carry a Dutch message meant for people.
  console.error(`koers: ${err.message}`);
  process.exit(1);
}
