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
import fs from "node:fs";
import path from "node:path";

const HELP = `koers: goals, KPIs and tasks for EOS and Scaling Up companies

Usage:
  koers serve                                   run the service (same as npm start)
  koers worker                                  run only the background worker
  koers migrate                                 bring the database up to date
  koers org create --naam N [--tijdzone TZ]
  koers org list                                organisations with their ids
  koers user create --org O --naam N --email E --rol R [--functietitel T] [--team NAAM] [--wachtwoord P]
  koers user list --org O                       members with ids, e-mail, role and team
  koers key create --org O --user U             prints the key once
  koers key list --org O [--user U]             keys with ids, hints and dates (never the key)
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
Database: DATABASE_URL, or the embedded PostgreSQL in KOERS_DATA_DIR (default ./data).
koers COMMAND --help explains one command; koers --version prints the version.`;

// Help per command, read off the usage lines above so a command added there has help too:
// its usage line, what it does, and each of its options.
interface CommandHelp { command: string; usage: string; summary: string }

function commandsOf(help: string): CommandHelp[] {
  const commands: CommandHelp[] = [];
  let last: CommandHelp[] = [];
  for (const line of help.split("\n")) {
    const m = /^  koers (.*)$/.exec(line);
    if (!m) {
      // A deeper-indented line continues the summary of the command above it.
      if (/^ {10,}\S/.test(line) && last.length) for (const c of last) c.summary = `${c.summary} ${line.trim()}`.trim();
      else last = [];
      continue;
    }
    const [usage, ...summary] = m[1]!.split(/\s{2,}/);
    const words: string[] = [];
    for (const token of usage!.split(" ")) {
      if (!/^[a-z][a-z|]*$/.test(token)) break;
      words.push(token);
    }
    // release|withdraw names two commands with one usage.
    let names = [""];
    for (const word of words) names = names.flatMap((n) => word.split("|").map((w) => `${n} ${w}`.trim()));
    last = names.map((command) => ({ command, usage: `koers ${usage!.trim()}`, summary: summary.join(" ").trim() }));
    commands.push(...last);
  }
  return commands;
}

/** What a command does, in a sentence or two; a command missing here shows its usage line's note. */
const ABOUT: Record<string, string> = {
  serve: "Runs the service: the REST door and the background worker (same as npm start).",
  worker: "Runs only the background worker, for deployments that scale it separately.",
  migrate: "Brings the database up to date (tables, SQL code and reference data).",
  "org create": "Creates an organisation.",
  "org list": "Lists the organisations: id, name, members, doors and released sections.",
  "user create": "Adds a member to an organisation. A person already known by e-mail joins with the same account; " +
    "a new team is created.",
  "user list": "Lists the members of an organisation: user id, role, name, e-mail, job title and team.",
  "key create": "Creates an API key acting as that member. The key is printed once; only its hash is stored.",
  "key list": "Lists API keys: key id, hint (the last characters), whose it is, created and revoked. Never the key itself.",
  "key revoke": "Revokes a key: from then on it answers 401 sleutel_ingetrokken.",
  "door set": "Switches a door (rest or mcp) on or off for an organisation, optionally read only.",
  "section release": `Releases sections for the doors: ${values("sectie").join(", ")}.`,
  "section withdraw": `Withdraws sections from the doors: ${values("sectie").join(", ")}.`,
  log: "Shows the organisation's call log, newest first, refused calls included.",
  "taak klaar": "Ticks a task off as the app does (emits taak.klaar; a repeating task gets its next occurrence).",
  "prioriteit afronden": "Completes a priority (emits prioriteit.afgerond; its repeating tasks stop).",
  "kpi doel": "Sets a KPI's target for a quarter.",
  "kernresultaat toevoegen": "Adds a key result to an OKR.",
  "kernresultaat bijwerken": "Records a key result's progress.",
};

/** What each option means; an option missing here is still listed, without explanation. */
const OPTION_HELP: Record<string, string> = {
  org: "organisation: its id or exact name (koers org list)",
  naam: "name",
  tijdzone: "IANA time zone of the organisation (default Europe/Amsterdam)",
  email: "e-mail address; a person already known by it joins with the same account",
  rol: `role: ${values("rol").join(", ")}`,
  functietitel: "job title",
  team: "team name; created when new",
  wachtwoord: "password for signing in to the app",
  user: "member: user id or e-mail address (koers user list)",
  "key-id": "key id (koers key list)",
  door: "the door: rest or mcp",
  aan: "switch the door on",
  uit: "switch the door off",
  "alleen-lezen": "read only: writes answer alleen_lezen",
  schrijven: "allow writes again",
  limit: "at most this many rows (default 50)",
  nummer: "task number",
  id: "id",
  kpi: "KPI id (from kpi_scorebord)",
  kwartaal: "quarter, Q<n>-<yyyy>",
  doel: "target value",
  prioriteit: "priority id (an OKR)",
  titel: "title",
  start: "start value (default 0)",
  waarde: "value",
};

/** One command's help; null for a command that does not exist. */
function commandHelp(words: string[]): string | null {
  const commands = commandsOf(HELP);
  const name = words.join(" ");
  const exact = commands.filter((c) => c.command === name);
  if (exact.length) {
    const c = exact[0]!;
    const options = [...new Set([...c.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!))];
    const width = Math.max(...[...options, "json", "help"].map((o) => o.length)) + 4;
    const about = ABOUT[c.command] ?? c.summary;
    return [`Usage: ${c.usage}`, ...(about ? ["", about] : []), "", "Options:",
      ...options.map((o) => `  --${o.padEnd(width)}${OPTION_HELP[o] ?? ""}`),
      `  --${"json".padEnd(width)}machine-readable output`, `  --${"help".padEnd(width)}this help`].join("\n");
  }
  // A group (koers key --help): its commands.
  const group = commands.filter((c) => c.command.startsWith(`${name} `));
  if (!name || !group.length) return null;
  return [`Commands of koers ${name}:`, ...[...new Set(group.map((c) => c.usage))].map((u) => `  ${u}`), "",
    `koers ${name} COMMAND --help explains one.`].join("\n");
}

function version(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string };
  return pkg.version;
}

class UsageError extends Error {}

const OPTIONS = {
  json: { type: "boolean" }, help: { type: "boolean", short: "h" }, version: { type: "boolean" },
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
  if (v.version) {
    print(json, { versie: version() }, `koers ${version()}`);
    return;
  }
  // koers --help, koers key create --help, koers help key create
  if (v.help || !group || group === "help") {
    const words = (group === "help" ? positionals.slice(1) : positionals).slice(0, 2);
    if (!words.length) return void console.log(HELP);
    const help = commandHelp(words) ?? commandHelp(words.slice(0, 1));
    if (!help) throw new UsageError(`unknown command "${words.join(" ")}"`);
    console.log(help);
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
    case "org list": {
      const rows = await withDatabase(async (sql) => (await sql`select r from beheer.organisaties() r`).map((x) => x.r));
      print(json, rows, rows.map((o) => `${o.org_id}  ${o.naam}  (${o.leden} member${o.leden === 1 ? "" : "s"}; ` +
        `${o.koppelingen.filter((k: { aan: boolean }) => k.aan).map((k: { door: string; alleen_lezen: boolean }) =>
          `${k.door} on${k.alleen_lezen ? ", read only" : ""}`).join("; ") || "doors off"}; ` +
        `released: ${o.secties.join(" ") || "none"})`).join("\n") || "(no organisations)");
      return;
    }
    case "user list": {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) => (await sql`select r from beheer.leden(beheer.org(${org})) r`).map((x) => x.r));
      print(json, rows, rows.map((m) => `${m.user_id}  ${m.rol.padEnd(8)}  ${m.naam} <${m.email}>` +
        `${m.functietitel ? `, ${m.functietitel}` : ""}${m.team ? `, team ${m.team}` : ""}${m.actief ? "" : " (inactive)"}`)
        .join("\n") || "(no members)");
      return;
    }
    case "key list": {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) => (await sql`
        select r from (select beheer.org(${org}) as id) o,
          beheer.sleutels(o.id, case when ${v.user ?? null}::text is not null then beheer.lid(o.id, ${v.user ?? null}) end) r`)
        .map((x) => x.r));
      print(json, rows, rows.map((k) => `${k.key_id}  ${k.hint}  ${k.naam} <${k.email}>  ` +
        `created ${new Date(k.aangemaakt_op).toISOString()}` +
        (k.ingetrokken_op ? `, revoked ${new Date(k.ingetrokken_op).toISOString()}` : ", active")).join("\n") || "(no keys)");
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
        `${(r.fout_code ?? "").padEnd(22)} ${r.operatie}  ${r.duur_ms ?? ""} ms`).join("\n") || "(no calls)");
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
