// The `koers` command line: running the service and the worker, and what the interface says
// happens "in the app" (organisations, people, keys, door switches, section releases, the log),
// loading an organisation from a file (koers import) and the demo organisation (koers demo).
// Every command takes --json for scripts; errors go to stderr with a non-zero exit.
import fs from "node:fs";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { readConfig } from "./config.ts";
import { database } from "./server.ts";
import { migrate } from "./db/migrate.ts";
import { sessionSettings } from "./db/connection.ts";
import { createApiKey } from "./api-key.ts";
import { hashPassword } from "./oauth/password.ts";
import { values } from "./choices.ts";
import path from "node:path";
import { addressPolicy, checkWebhookUrl, resolveChecked } from "./webhooks/address.ts";
import { createSigningSecret } from "./webhooks/signature.ts";
import { operations, restPath } from "./registry.ts";
import { importSchema } from "./import/schema.ts";
import { importData, parseImportFile, totals, type ImportOutcome } from "./import/run.ts";
import { DEMO_ORG, DEMO_OWNER, readDemo, shiftDemo } from "./import/demo.ts";

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
  koers mcp tokens --org O --user U             the person's connected AI assistants
  koers mcp intrekken --id T                    revokes one (its next call answers 401)
  koers taak klaar --org O --nummer N [--user U]          tick a task off
  koers prioriteit afronden --org O --id P [--user U]     complete a priority
  koers kpi doel --org O --kpi K --kwartaal Q3-2026 --doel N
  koers kernresultaat toevoegen --org O --prioriteit P --titel T --doel N [--start S]
  koers kernresultaat bijwerken --org O --id K --waarde N
  koers webhook maken --org O --naam N --url U --gebeurtenissen E1,E2,... [--user U]
                                                prints the signing secret once
  koers webhook lijst --org O
  koers webhook test --id W                     sends a webhook.test message
  koers webhook afleveringen --id W [--limit N] the delivery log, newest first
  koers webhook opnieuw --id W --bericht M      sends a message again
  koers webhook aan|uit --id W
  koers meldingen --org O [--user U] [--limit N]  notifications (default: the owners')
  koers team maken --org O --naam N [--leider U]
  koers proces maken --org O --naam N --eindverantwoordelijke U
  koers rol maken --org O --proces P --naam N [--wie U]  P a process name or id; no --wie: an open seat
  koers lid wijzigen --org O --user U [--rol R] [--team T|geen] [--functietitel F] [--actief ja|nee]
  koers reflectie indienen --org O --user U --soort ${values("reflectie_soort").join("|")} --periode P
        --goed T --beter T --geleerd T --focus T --energie 1-10
  koers uren schrijven --org O --user U --datum D --uren N [--taak NUMMER|--prioriteit ID|--project ID]
  koers waardering meten --org O --periode P [--omzet N --ebitda N --multiple N --aandelenwaarde N]
                                                P: 2026-05, Q2-2026 or 2026; no figures: an open invitation
  koers gesprek vastleggen --org O --wie U --met U --soort S --datum D [--afgerond] [--eindoordeel ${values("eindclassificatie").join("|")}]
                                                S: ${values("gesprek_soort").join(", ")}
  koers sessienotitie vaststellen --org O --id N
  koers strategie goedkeuren|afwijzen --org O --id P [--user U]
  koers import --org O FILE.json                load a file (docs/import.md); --schema prints its JSON Schema
  koers demo                                    load the demo organisation and print a key and URLs to try
  koers opmerking plaatsen --org O --taak NUMMER --user U --tekst T
  koers bijlage toevoegen --org O --taak NUMMER --user U --bestand PAD
                                                stores the file (at most 10 MiB); the worker reads
                                                the text of PDF, .docx, .xlsx and text files for search

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
  "webhook maken": "Creates a webhook for an organisation, made by an owner; prints its signing secret once.",
  "webhook lijst": "Lists an organisation's webhooks: id, on or off, name, address, events, failed deliveries in a row. Never the secret.",
  "webhook test": "Sends a webhook.test message to the webhook.",
  "webhook afleveringen": "Shows a webhook's delivery log, newest first: time, message id, event, attempt, status, duration, error.",
  "webhook opnieuw": "Sends a message again: the same message id, a new delivery.",
  "webhook aan": "Switches a webhook on; its count of failed deliveries starts again.",
  "webhook uit": "Switches a webhook off.",
  meldingen: "Shows notifications (default: the owners'), such as a webhook switched off after fifteen failed deliveries.",
  "mcp tokens": "Lists a person's connected AI assistants (never the tokens).",
  "mcp intrekken": "Revokes an assistant's connection: its next call answers 401.",
  "team maken": "Creates a team, optionally with its leader.",
  "proces maken": "Creates a business process with the member ultimately responsible for it.",
  "rol maken": "Creates a role seat in a process, occupied or open.",
  "lid wijzigen": "Changes a member's role, team, job title or whether they are active.",
  "reflectie indienen": "Submits a reflection as that member; submitting the same period again replaces it.",
  "uren schrijven": "Writes hours for a member, on a task, a priority, a project or nothing in particular.",
  "waardering meten": "Records a company valuation for a period, or an open invitation to the bookkeeper without figures.",
  "gesprek vastleggen": "Records a review conversation: about whom, led by whom, its kind, date and outcome.",
  "sessienotitie vaststellen": "The coach establishes a concept session note; from then on the client sees it.",
  "strategie goedkeuren": "Approves an open strategy proposal: its fields are written to the canvas.",
  "strategie afwijzen": "Rejects an open strategy proposal.",
  import: "Loads an organisation's data from a JSON file (docs/import.md), all or nothing; running it again adds nothing twice.",
  demo: "Loads a demo organisation, switches REST on, releases every section and prints a key and URLs to try.",
  "opmerking plaatsen": "Places a comment on a task as that member; zoeken finds it.",
  "bijlage toevoegen": "Attaches a file to a task as that member; its text (PDF, Word, Excel) is read by the worker so zoeken finds it.",
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
  url: "the receiver's address: https and a host name (docs/webhooks.md)",
  gebeurtenissen: "events to send, comma-separated (docs/webhooks.md)",
  bericht: "message id (koers webhook afleveringen)",
  leider: "team leader: user id or e-mail address",
  eindverantwoordelijke: "ultimately responsible member: user id or e-mail address",
  proces: "process: its name or id",
  wie: "member: user id or e-mail address (whom it is about, or who holds the seat)",
  met: "conversation leader: user id or e-mail address",
  actief: "ja or nee",
  soort: "kind (the values are in the usage line)",
  periode: "period: <yyyy>-<mm>, Q<n>-<yyyy> or <yyyy>, as the kind asks",
  goed: "what went well",
  beter: "what can be better",
  geleerd: "what was learned",
  focus: "focus for the next period",
  energie: "energy, 1 to 10",
  datum: "date, yyyy-mm-dd",
  uren: "hours",
  taak: "task number",
  project: "project id",
  omzet: "revenue",
  ebitda: "normalised EBITDA",
  multiple: "multiple",
  aandelenwaarde: "equity value",
  afgerond: "the conversation is completed",
  eindoordeel: `final classification: ${values("eindclassificatie").join(", ")} (needs --afgerond)`,
  schema: "print the import file's JSON Schema instead of importing",
  tekst: "the text",
  bestand: "path of the file to attach (at most 10 MiB)",
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
  waarde: { type: "string" }, url: { type: "string" }, gebeurtenissen: { type: "string" },
  bericht: { type: "string" },
  leider: { type: "string" }, eindverantwoordelijke: { type: "string" }, proces: { type: "string" },
  wie: { type: "string" }, met: { type: "string" }, actief: { type: "string" }, soort: { type: "string" },
  periode: { type: "string" }, goed: { type: "string" }, beter: { type: "string" }, geleerd: { type: "string" },
  focus: { type: "string" }, energie: { type: "string" }, datum: { type: "string" }, uren: { type: "string" },
  taak: { type: "string" }, project: { type: "string" }, omzet: { type: "string" }, ebitda: { type: "string" },
  multiple: { type: "string" }, aandelenwaarde: { type: "string" }, afgerond: { type: "boolean" },
  eindoordeel: { type: "string" }, schema: { type: "boolean" }, tekst: { type: "string" }, bestand: { type: "string" },
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

function limitOption(v: Values): number {
  const limit = v.limit === undefined ? 50 : Number(v.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number");
  return limit;
}

function uuidOption(v: Values, name: keyof Values): string {
  const value = requireOption(v, name);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw new UsageError(`--${name} must be an id (uuid)`);
  return value;
}

/** An attachment's bytes; past the limit only enough to let the database refuse it by size. */
function readAttachment(file: string): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new UsageError(`--bestand: cannot read ${file}`);
  }
  if (!stat.isFile()) throw new UsageError(`--bestand: ${file} is not a file`);
  const length = Math.min(stat.size, ATTACHMENT_MAX_BYTES + 1);
  const buffer = Buffer.alloc(length);
  const fd = fs.openSync(file, "r");
  try {
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** The database refuses larger files (app_hidden.bijlage_max_bytes). */
const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

const MIMETYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  txt: "text/plain", md: "text/markdown", csv: "text/csv",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg",
};

function mimetypeOf(file: string): string | null {
  return MIMETYPES[path.extname(file).slice(1).toLowerCase()] ?? null;
}

type Db = postgres.Sql;

async function withDatabase<T>(work: (sql: Db) => Promise<T>, onNotice: (message: string) => void = () => {}): Promise<T> {
  const config = readConfig();
  const { url, embedded } = await database(config, (line) => process.stderr.write(`koers: ${line}\n`));
  try {
    await migrate(url, { setDoorPassword: !config.doorDatabaseUrl });
    const sql = postgres(url, { max: 1, onnotice: (n) => onNotice(String(n.message)), connection: sessionSettings(config.now) });
    try {
      return await work(sql);
    } finally {
      await sql.end();
    }
  } finally {
    if (embedded?.ownedByUs) await embedded.stop();
  }
}

/** The database's progress lines on a large import. */
function progress(message: string) {
  if (message.startsWith("import:")) process.stderr.write(`koers: ${message}\n`);
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
  // import and demo take no second word (import's is the file).
  const command = group === "import" || group === "demo" ? group : `${group} ${action ?? ""}`.trim();
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
        `${(r.fout_code ?? "").padEnd(22)} ${r.operatie}  ${r.duur_ms ?? ""} ms${r.verzoek_id ? `  request ${r.verzoek_id}` : ""}`)
        .join("\n") || "(no calls)");
      return;
    }
    case "mcp tokens": {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      const rows = await withDatabase(async (sql) =>
        (await sql`select beheer.mcp_verbindingen(beheer.lid(beheer.org(${org}), ${user})) as r`)[0]!.r) as
        { id: string; assistent: string; redirect_uri: string; aangemaakt_op: string; vernieuwd_op: string | null;
          verloopt_op: string; actief: boolean; reden_intrekking: string | null }[];
      print(json, rows, rows.map((r) =>
        `${r.id}  ${r.actief ? "active " : r.reden_intrekking ? "revoked" : "expired"}  ${r.assistent}  ${r.redirect_uri}  ` +
        `connected ${new Date(r.aangemaakt_op).toISOString()}` +
        (r.vernieuwd_op ? `, last refreshed ${new Date(r.vernieuwd_op).toISOString()}` : "")).join("\n") || "(no connected assistants)");
      return;
    }
    case "mcp intrekken": {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => (await sql`select beheer.mcp_verbinding_intrekken(${id}) as r`)[0]!.r);
      print(json, r, `connection ${r.id} revoked`);
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
    case "opmerking plaatsen": {
      const [org, taskNumber, user, text] = [requireOption(v, "org"), numberOption(v, "taak", true), requireOption(v, "user"),
        requireOption(v, "tekst")];
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.opmerking_plaatsen(o.id, ${taskNumber}, beheer.lid(o.id, ${user}), ${text}) as r
        from (select beheer.org(${org}) as id) o`)[0]!.r);
      print(json, r, `comment placed on task #${r.taak.nummer} ${r.taak.titel} (id ${r.id})`);
      return;
    }
    case "bijlage toevoegen": {
      const [org, taskNumber, user, file] = [requireOption(v, "org"), numberOption(v, "taak", true), requireOption(v, "user"),
        requireOption(v, "bestand")];
      const content = readAttachment(file);
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.bijlage_toevoegen(o.id, ${taskNumber}, beheer.lid(o.id, ${user}), ${path.basename(file)},
                                        ${mimetypeOf(file)}, ${content}) as r
        from (select beheer.org(${org}) as id) o`)[0]!.r);
      print(json, r, `attachment ${r.naam} (${r.bytes} bytes) stored on task #${r.taak.nummer}; its text is read in the background`);
      return;
    }
    case "webhook maken": {
      const [org, name, address, events] = [requireOption(v, "org"), requireOption(v, "naam"), requireOption(v, "url"),
        requireOption(v, "gebeurtenissen")];
      const kinds = events.split(",").map((e) => e.trim()).filter(Boolean);
      // The address is checked here (every IP notation, resolved addresses) and again by the
      // database; refusals exit 1 like every other refusal.
      const url = checkWebhookUrl(address);
      await resolveChecked(url.hostname, addressPolicy());
      const secret = createSigningSecret();
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.webhook_maken(beheer.org(${org}), ${v.user ?? null}, ${name}, ${url.href}, ${kinds}::text[], ${secret}) as r`)[0]!.r);
      print(json, { ...r, geheim: secret },
        `webhook created: ${r.naam} (id ${r.id}), events ${r.gebeurtenissen.join(", ")}\n` +
        `Signing secret (shown once, store it now):\n${secret}`);
      return;
    }
    case "webhook lijst": {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) =>
        (await sql`select r from beheer.webhooks(beheer.org(${org})) r`).map((x) => x.r));
      print(json, rows, rows.map((w) => `${w.id}  ${w.aan ? "on " : "off"}  ${w.naam}  ${w.url}  ` +
        `${w.gebeurtenissen.join(",")}  failed in a row: ${w.opeenvolgende_fouten}`).join("\n") || "(no webhooks)");
      return;
    }
    case "webhook test": {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => (await sql`select beheer.webhook_testen(${id}) as r`)[0]!.r);
      print(json, r, `test message ${r.bericht_id} queued; see: koers webhook afleveringen --id ${id}`);
      return;
    }
    case "webhook afleveringen": {
      const [id, limit] = [uuidOption(v, "id"), limitOption(v)];
      const rows = await withDatabase(async (sql) =>
        (await sql`select r from beheer.webhook_afleveringen(${id}, ${limit}) r`).map((x) => x.r));
      print(json, rows, rows.map((a) =>
        `${new Date(a.tijdstip).toISOString()}  ${a.bericht_id}  ${a.gebeurtenis.padEnd(21)} #${a.poging}  ` +
        `${String(a.status_code ?? (a.onderweg ? "..." : "-")).padEnd(3)}  ${a.duur_ms ?? "-"} ms  ${a.fout ?? ""}`).join("\n") ||
        "(no deliveries)");
      return;
    }
    case "webhook opnieuw": {
      const [id, message] = [uuidOption(v, "id"), uuidOption(v, "bericht")];
      const r = await withDatabase(async (sql) => (await sql`select beheer.webhook_opnieuw(${id}, ${message}) as r`)[0]!.r);
      print(json, r, `message ${r.bericht_id} queued again`);
      return;
    }
    case "webhook aan":
    case "webhook uit": {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => (await sql`select beheer.webhook_zetten(${id}, ${action === "aan"}) as r`)[0]!.r);
      print(json, r, `webhook ${r.naam} (${r.id}): ${r.aan ? "on" : "off"}`);
      return;
    }
    case "meldingen": {
      const [org, limit] = [requireOption(v, "org"), limitOption(v)];
      const rows = await withDatabase(async (sql) =>
        (await sql`select r from beheer.meldingen(beheer.org(${org}), ${v.user ?? null}, ${limit}) r`).map((x) => x.r));
      print(json, rows, rows.map((m) => `${new Date(m.tijdstip).toISOString()}  ${m.naam}: ${m.tekst}`).join("\n") ||
        "(no notifications)");
      return;
    }
    case "team maken": {
      const [org, name] = [requireOption(v, "org"), requireOption(v, "naam")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.team_maken(beheer.org(${org}), ${name}, ${v.leider ?? null}) as r`)[0]!.r);
      print(json, r, `team created: ${r.naam} (id ${r.id})${r.leider ? `, led by ${r.leider.naam}` : ""}`);
      return;
    }
    case "proces maken": {
      const [org, name, lead] = [requireOption(v, "org"), requireOption(v, "naam"), requireOption(v, "eindverantwoordelijke")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.proces_maken(beheer.org(${org}), ${name}, ${lead}) as r`)[0]!.r);
      print(json, r, `process created: ${r.naam} (id ${r.id}), ultimately responsible ${r.eindverantwoordelijke.naam}`);
      return;
    }
    case "rol maken": {
      const [org, process, name] = [requireOption(v, "org"), requireOption(v, "proces"), requireOption(v, "naam")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.rol_maken(beheer.org(${org}), ${process}, ${name}, ${v.wie ?? null}) as r`)[0]!.r);
      print(json, r, `role created: ${r.naam} in ${r.proces.naam} (id ${r.id}), ${r.wie ? `held by ${r.wie.naam}` : "open"}`);
      return;
    }
    case "lid wijzigen": {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      if ([v.rol, v.team, v.functietitel, v.actief].every((x) => x === undefined)) {
        throw new UsageError("give at least one of --rol, --team, --functietitel and --actief");
      }
      if (v.actief !== undefined && v.actief !== "ja" && v.actief !== "nee") throw new UsageError("--actief must be ja or nee");
      const active = v.actief === undefined ? null : v.actief === "ja";
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.lid_wijzigen(beheer.org(${org}), ${user}, ${v.rol ?? null}, ${v.team ?? null},
                                   ${v.functietitel ?? null}, ${active}) as r`)[0]!.r);
      print(json, r, `${r.naam}: ${r.rol}${r.functietitel ? `, ${r.functietitel}` : ""}, team ${r.team?.naam ?? "none"}` +
        `${r.actief ? "" : ", inactive"}`);
      return;
    }
    case "reflectie indienen": {
      const [org, user, kind, period] = [requireOption(v, "org"), requireOption(v, "user"), requireOption(v, "soort"), requireOption(v, "periode")];
      const [good, better, learned, focus] = [requireOption(v, "goed"), requireOption(v, "beter"), requireOption(v, "geleerd"), requireOption(v, "focus")];
      const energy = numberOption(v, "energie", true);
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.reflectie_indienen(beheer.org(${org}), ${user}, ${kind}, ${period}, ${good}, ${better},
                                         ${learned}, ${focus}, ${energy}) as r`)[0]!.r);
      print(json, r, `reflection ${r.overschreven ? "resubmitted" : "submitted"}: ${r.wie.naam}, ${r.soort} ${r.periode}`);
      return;
    }
    case "uren schrijven": {
      const [org, user, date, hours] = [requireOption(v, "org"), requireOption(v, "user"), requireOption(v, "datum"), numberOption(v, "uren")];
      if ([v.taak, v.prioriteit, v.project].filter((x) => x !== undefined).length > 1) {
        throw new UsageError("give at most one of --taak, --prioriteit and --project");
      }
      const task = v.taak === undefined ? null : numberOption(v, "taak", true);
      const priority = v.prioriteit === undefined ? null : uuidOption(v, "prioriteit");
      const project = v.project === undefined ? null : uuidOption(v, "project");
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.uren_schrijven(beheer.org(${org}), ${user}, ${date}, ${hours}, ${task}, ${priority}, ${project}) as r`)[0]!.r);
      const on = r.taak ? ` on task #${r.taak.nummer}` : r.prioriteit ? ` on ${r.prioriteit.titel}` : r.project ? ` on ${r.project.titel}` : "";
      print(json, r, `${r.uren} h written for ${r.wie.naam} on ${r.datum}${on} (${r.dag_totaal} h that day)`);
      return;
    }
    case "waardering meten": {
      const [org, period] = [requireOption(v, "org"), requireOption(v, "periode")];
      const figures = (["omzet", "ebitda", "multiple", "aandelenwaarde"] as const);
      const given = figures.filter((f) => v[f] !== undefined);
      if (given.length > 0 && given.length < figures.length) {
        throw new UsageError("give --omzet, --ebitda, --multiple and --aandelenwaarde together, or none (an open invitation)");
      }
      const [revenue, ebitda, multiple, equity] = figures.map((f) => (given.length ? numberOption(v, f) : null));
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.waardering_meten(beheer.org(${org}), ${period}, ${revenue ?? null}, ${ebitda ?? null},
                                       ${multiple ?? null}, ${equity ?? null}) as r`)[0]!.r);
      print(json, r, r.open_uitnodiging ? `valuation ${r.periode}: open invitation to the bookkeeper`
        : `valuation ${r.periode} measured: equity value ${r.aandelenwaarde}${r.overschreven ? " (replaced the earlier one)" : ""}`);
      return;
    }
    case "gesprek vastleggen": {
      const [org, who, leader, kind, date] = [requireOption(v, "org"), requireOption(v, "wie"), requireOption(v, "met"),
        requireOption(v, "soort"), requireOption(v, "datum")];
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.gesprek_vastleggen(beheer.org(${org}), ${who}, ${leader}, ${kind}, ${date}, ${v.afgerond ?? false},
                                         ${v.eindoordeel ?? null}) as r`)[0]!.r);
      print(json, r, `${r.soort} conversation ${r.bijgewerkt ? "updated" : "recorded"}: ${r.wie.naam} with ${r.met.naam} on ${r.datum}` +
        `${r.afgerond ? `, completed${r.eindoordeel ? ` (${r.eindoordeel})` : ""}` : ""}`);
      return;
    }
    case "sessienotitie vaststellen": {
      const [org, id] = [requireOption(v, "org"), uuidOption(v, "id")];
      const r = await withDatabase(async (sql) =>
        (await sql`select beheer.sessienotitie_vaststellen(beheer.org(${org}), ${id}) as r`)[0]!.r);
      print(json, r, `session note established: ${r.titel} (${r.datum})`);
      return;
    }
    case "strategie goedkeuren":
    case "strategie afwijzen": {
      const [org, id] = [requireOption(v, "org"), uuidOption(v, "id")];
      const r = await withDatabase(async (sql) => (await sql`
        select beheer.strategie_beoordelen(beheer.org(${org}), ${id}, ${action === "goedkeuren"}, ${v.user ?? null}) as r`)[0]!.r);
      print(json, r, r.status === "goedgekeurd"
        ? `strategy proposal approved; canvas fields set: ${Object.keys(r.velden).join(", ") || "none"}`
        : "strategy proposal rejected");
      return;
    }
    case "import": {
      if (v.schema) {
        console.log(JSON.stringify(importSchema, null, 2));
        return;
      }
      const org = requireOption(v, "org");
      if (!action) throw new UsageError("name the file to import: koers import --org O FILE.json");
      if (rest.length > 0) throw new UsageError("import takes one file");
      let text: string;
      try {
        text = fs.readFileSync(action, "utf8");
      } catch (e) {
        throw new UsageError(`cannot read ${action}: ${(e as Error).message}`);
      }
      const parsed = parseImportFile(text);
      const outcome: ImportOutcome = "fouten" in parsed ? { ok: false, fouten: parsed.fouten }
        : await withDatabase((sql) => importData(sql, org, parsed.file), progress);
      if (!outcome.ok) {
        if (json) console.log(JSON.stringify({ fouten: outcome.fouten }, null, 2));
        else {
          console.error(`koers: ${action} has ${outcome.fouten.length} fault${outcome.fouten.length === 1 ? "" : "s"}; nothing was imported.`);
          for (const f of outcome.fouten) console.error(`  ${f.pad || "/"}: ${f.bericht}`);
        }
        process.exit(1);
      }
      const t = totals(outcome.aantallen);
      print(json, { org_id: outcome.orgId, aantallen: outcome.aantallen, totaal: t },
        `imported ${action}: ${t.nieuw} new, ${t.bijgewerkt} updated, ${t.ongewijzigd} unchanged\n` +
        Object.entries(outcome.aantallen).map(([kind, c]) =>
          `  ${kind}: ${c.nieuw ?? 0} new, ${c.bijgewerkt ?? 0} updated, ${c.ongewijzigd ?? 0} unchanged`).join("\n"));
      return;
    }
    case "demo": {
      if (action) throw new UsageError("demo takes no arguments");
      const config = readConfig();
      const apiKey = createApiKey();
      const r = await withDatabase(async (sql) => {
        // Two demos at once make one organisation.
        await sql`select pg_advisory_lock(hashtext('koers:demo'))`;
        const [{ today }] = await sql`select to_char((app_hidden.nu() at time zone 'Europe/Amsterdam')::date, 'YYYY-MM-DD') as today` as unknown as [{ today: string }];
        const [existing] = await sql`select org_id from app.organisaties where naam = ${DEMO_ORG} order by aangemaakt_op limit 1`;
        const orgId: string = existing?.org_id ?? (await sql`select beheer.org_aanmaken(${DEMO_ORG}) as r`)[0]!.r.org_id;
        const outcome = await importData(sql, orgId, shiftDemo(readDemo(), today));
        if (!outcome.ok) throw new Error(`the demo file does not import: ${JSON.stringify(outcome.fouten.slice(0, 5))}`);
        const [key] = await sql`select beheer.sleutel_aanmaken(${orgId}, beheer.lid(${orgId}, ${DEMO_OWNER}), ${apiKey.hash}, ${apiKey.hint}) as r`;
        await sql`select beheer.koppeling_zetten(${orgId}, 'rest', true, false)`;
        await sql`select beheer.secties_zetten(${orgId}, ${values("sectie") as string[]}::text[], true)`;
        const [owner] = await sql`select naam from app.accounts where lower(email) = ${DEMO_OWNER}`;
        return { orgId, aantallen: outcome.aantallen, keyId: key!.r.key_id as string, owner: owner!.naam as string };
      }, progress);
      const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
      const baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
      // The reads that need nothing but org_id and the registry's example parameters.
      const urls = operations.filter((o) => !o.writes && !o.onlyMcp &&
        Object.entries(o.parameters).every(([name, p]) => name === "org_id" || !p.required || o.example?.[name] !== undefined))
        .map((o) => {
          const query = new URLSearchParams({ ...(o.requiresOrg === false ? {} : { org_id: r.orgId }), ...o.example });
          return `${baseUrl}${restPath(o)}${query.size ? `?${query}` : ""}`;
        });
      const curl = urls.map((u) => `curl -H "Authorization: Bearer ${apiKey.key}" "${u}"`);
      const t = totals(r.aantallen);
      print(json, { org_id: r.orgId, organisatie: DEMO_ORG, sleutel: apiKey.key, key_id: r.keyId, namens: r.owner,
        base_url: baseUrl, aantallen: r.aantallen, curl },
        `demo organisation: ${DEMO_ORG} (org_id ${r.orgId}): ${t.nieuw} new, ${t.bijgewerkt} updated, ${t.ongewijzigd} unchanged\n` +
        `REST door on, all sections released.\n\n` +
        `API key acting as ${r.owner} (owner), shown once:\n${apiKey.key}\n\n` +
        `With the service running (npm start), try:\n${curl.map((c) => `  ${c}`).join("\n")}`);
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
