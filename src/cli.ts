// The `koers` command line: running the service and the worker, and what the interface says
// happens "in the app" (organisations, people, keys, door switches, section releases, the log).
// Every command takes --json for scripts; errors go to stderr with a non-zero exit.
import crypto from "node:crypto";
import { parseArgs, promisify } from "node:util";
import postgres from "postgres";
import { leesConfig } from "./config.ts";
import { database } from "./server.ts";
import { migreer } from "./db/migrate.ts";
import { sessieInstellingen } from "./db/connection.ts";
import { maakSleutel } from "./api-key.ts";

const HULP = `koers: goals, KPIs and tasks for EOS and Scaling Up companies

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
                                                sections: team prioriteiten kpis weektaken reviews financien
  koers log --org O [--limit N]
  koers taak klaar --org O --nummer N [--user U]          tick a task off
  koers prioriteit afronden --org O --id P [--user U]     complete a priority
  koers kpi doel --org O --kpi K --kwartaal Q3-2026 --doel N
  koers kernresultaat toevoegen --org O --prioriteit P --titel T --doel N [--start S]
  koers kernresultaat bijwerken --org O --id K --waarde N

O is an organisation id or exact name; U a user id or e-mail address; R one of
eigenaar, admin, mt, lid, coach. Add --json to any command for machine-readable output.
Database: DATABASE_URL, or the embedded PostgreSQL in KOERS_DATA_DIR (default ./data).`;

class Gebruiksfout extends Error {}

const opties = {
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

type Waarden = ReturnType<typeof parseArgs<{ options: typeof opties; allowPositionals: true }>>["values"];

function nodig(v: Waarden, naam: keyof Waarden): string {
  const w = v[naam];
  if (typeof w !== "string" || w.trim() === "") throw new Gebruiksfout(`--${naam} is required`);
  return w;
}

function getal(v: Waarden, naam: keyof Waarden, geheel = false): number {
  const w = nodig(v, naam);
  const n = Number(w);
  if (!Number.isFinite(n) || (geheel && !Number.isInteger(n))) {
    throw new Gebruiksfout(`--${naam} must be a ${geheel ? "whole " : ""}number, got "${w}"`);
  }
  return n;
}

function uuid(v: Waarden, naam: keyof Waarden): string {
  const w = nodig(v, naam);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(w)) throw new Gebruiksfout(`--${naam} must be an id (uuid)`);
  return w;
}

async function wachtwoordHash(wachtwoord: string): Promise<string> {
  const zout = crypto.randomBytes(16);
  const sleutel = (await promisify(crypto.scrypt)(wachtwoord, zout, 32)) as Buffer;
  return `scrypt$16384$8$1$${zout.toString("base64url")}$${sleutel.toString("base64url")}`;
}

type Db = postgres.Sql;

async function metDatabase<T>(werk: (sql: Db) => Promise<T>): Promise<T> {
  const config = leesConfig();
  const { url, ingebed } = await database(config, (r) => process.stderr.write(`koers: ${r}\n`));
  try {
    await migreer(url, { deurWachtwoordZetten: !config.doorDatabaseUrl });
    const sql = postgres(url, { max: 1, onnotice: () => {}, connection: sessieInstellingen(config.now) });
    try {
      return await werk(sql);
    } finally {
      await sql.end();
    }
  } finally {
    if (ingebed?.eigen) await ingebed.stop();
  }
}

function toon(json: boolean, data: unknown, tekst: string) {
  console.log(json ? JSON.stringify(data, null, 2) : tekst);
}

async function voer(args: string[]): Promise<void> {
  const { values: v, positionals } = parseArgs({ args, options: opties, allowPositionals: true, strict: true });
  const [groep, actie, ...rest] = positionals;
  const json = v.json ?? false;
  if (v.help || !groep) {
    console.log(HULP);
    return;
  }
  const commando = `${groep} ${actie ?? ""}`.trim();
  switch (commando) {
    case "serve":
      await import("./main.ts");
      return;
    case "worker":
      await import("./worker-main.ts");
      return;
    case "migrate":
      await metDatabase(async () => {});
      toon(json, { gemigreerd: true }, "database is up to date");
      return;
    case "org create": {
      const naam = nodig(v, "naam");
      const r = await metDatabase(async (sql) =>
        (await sql`select beheer.org_aanmaken(${naam}, ${v.tijdzone ?? "Europe/Amsterdam"}) as r`)[0]!.r);
      toon(json, r, `organisation created: ${r.naam} (org_id ${r.org_id})`);
      return;
    }
    case "user create": {
      const [org, naam, email, rol] = [nodig(v, "org"), nodig(v, "naam"), nodig(v, "email"), nodig(v, "rol")];
      const hash = v.wachtwoord ? await wachtwoordHash(v.wachtwoord) : null;
      const r = await metDatabase(async (sql) => (await sql`
        select beheer.lid_aanmaken(beheer.org(${org}), ${naam}, ${email}, ${rol},
                                   ${v.functietitel ?? null}, ${v.team ?? null}, ${hash}) as r`)[0]!.r);
      toon(json, r, `user created: ${r.naam} <${r.email}> as ${r.rol} (user_id ${r.user_id})`);
      return;
    }
    case "key create": {
      const [org, user] = [nodig(v, "org"), nodig(v, "user")];
      const sleutel = maakSleutel();
      const r = await metDatabase(async (sql) => (await sql`
        select beheer.sleutel_aanmaken(o.id, beheer.lid(o.id, ${user}), ${sleutel.hash}, ${sleutel.hint}) as r
        from (select beheer.org(${org}) as id) o`)[0]!.r);
      toon(json, { ...r, sleutel: sleutel.sleutel },
        `API key (shown once, store it now):\n${sleutel.sleutel}\nkey_id ${r.key_id}`);
      return;
    }
    case "key revoke": {
      const id = nodig(v, "key-id");
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Gebruiksfout("--key-id must be a key id (uuid)");
      const r = await metDatabase(async (sql) => (await sql`select beheer.sleutel_intrekken(${id}) as r`)[0]!.r);
      toon(json, r, `key ${r.key_id} revoked`);
      return;
    }
    case "door set": {
      const [org, door] = [nodig(v, "org"), nodig(v, "door")];
      if (v.aan === v.uit) throw new Gebruiksfout("give exactly one of --aan and --uit");
      if (v["alleen-lezen"] && v.schrijven) throw new Gebruiksfout("give at most one of --alleen-lezen and --schrijven");
      const alleenLezen = v["alleen-lezen"] ? true : v.schrijven ? false : null;
      const r = await metDatabase(async (sql) => (await sql`
        select beheer.koppeling_zetten(beheer.org(${org}), ${door}, ${v.aan ?? false}, ${alleenLezen}) as r`)[0]!.r);
      toon(json, r, `door ${r.door}: ${r.aan ? "on" : "off"}${r.alleen_lezen ? ", read only" : ""}`);
      return;
    }
    case "section release":
    case "section withdraw": {
      const org = nodig(v, "org");
      if (rest.length === 0) throw new Gebruiksfout("name at least one section");
      const r = await metDatabase(async (sql) => (await sql`
        select beheer.secties_zetten(beheer.org(${org}), ${rest}::text[], ${actie === "release"}) as r`)[0]!.r);
      toon(json, r, Object.entries(r).map(([s, aan]) => `${s}: ${aan ? "released" : "withdrawn"}`).join("\n"));
      return;
    }
    case "log": {
      const org = nodig(v, "org");
      const limiet = v.limit === undefined ? 50 : Number(v.limit);
      if (!Number.isInteger(limiet) || limiet < 1) throw new Gebruiksfout("--limit must be a positive whole number");
      const rijen = await metDatabase(async (sql) =>
        (await sql`select r from beheer.log(beheer.org(${org}), ${limiet}) r`).map((x) => x.r));
      toon(json, rijen, rijen.map((r) =>
        `${new Date(r.tijdstip).toISOString()}  ${r.door.padEnd(4)} ${String(r.status).padEnd(3)} ` +
        `${(r.fout_code ?? "").padEnd(22)} ${r.operatie}  ${r.duur_ms ?? ""} ms`).join("\n") || "(no calls)");
      return;
    }
    case "taak klaar": {
      const [org, nummer] = [nodig(v, "org"), getal(v, "nummer", true)];
      const r = await metDatabase(async (sql) =>
        (await sql`select beheer.taak_afvinken(beheer.org(${org}), ${nummer}, ${v.user ?? null}) as r`)[0]!.r);
      toon(json, r, `task #${r.nummer} ${r.omschrijving}: ${r.stand}`);
      return;
    }
    case "prioriteit afronden": {
      const [org, id] = [nodig(v, "org"), uuid(v, "id")];
      const r = await metDatabase(async (sql) =>
        (await sql`select beheer.prioriteit_afronden(beheer.org(${org}), ${id}, ${v.user ?? null}) as r`)[0]!.r);
      toon(json, r, `priority completed: ${r.titel}`);
      return;
    }
    case "kpi doel": {
      const [org, kpi, kwartaal, doel] = [nodig(v, "org"), uuid(v, "kpi"), nodig(v, "kwartaal"), getal(v, "doel")];
      const r = await metDatabase(async (sql) =>
        (await sql`select beheer.kpi_kwartaaldoel_zetten(beheer.org(${org}), ${kpi}, ${kwartaal}, ${doel}) as r`)[0]!.r);
      toon(json, r, `${r.naam}: target ${r.kwartaaldoel} in ${r.kwartaal}, light ${r.stoplicht ?? "none yet"}`);
      return;
    }
    case "kernresultaat toevoegen": {
      const [org, p, titel, doel] = [nodig(v, "org"), uuid(v, "prioriteit"), nodig(v, "titel"), getal(v, "doel")];
      const start = v.start === undefined ? 0 : getal(v, "start");
      const r = await metDatabase(async (sql) => (await sql`
        select beheer.kernresultaat_toevoegen(beheer.org(${org}), ${p}, ${titel}, ${doel}, ${start}) as r`)[0]!.r);
      toon(json, r, `key result added (id ${r.id}); ${r.prioriteit.titel} is ${r.prioriteit.stand}`);
      return;
    }
    case "kernresultaat bijwerken": {
      const [org, id, waarde] = [nodig(v, "org"), uuid(v, "id"), getal(v, "waarde")];
      const r = await metDatabase(async (sql) =>
        (await sql`select beheer.kernresultaat_bijwerken(beheer.org(${org}), ${id}, ${waarde}) as r`)[0]!.r);
      toon(json, r, `key result at ${r.waarde}; ${r.prioriteit.titel}: ${r.prioriteit.voortgang}% (${r.prioriteit.stand})`);
      return;
    }
    default:
      throw new Gebruiksfout(`unknown command "${commando}"`);
  }
}

try {
  await voer(process.argv.slice(2));
} catch (e) {
  const err = e as Error & { code?: string; detail?: string };
  if (e instanceof Gebruiksfout || err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" || err.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    console.error(`koers: ${err.message}\nRun koers --help for usage.`);
    process.exit(2);
  }
  // Refusals from SQL carry a Dutch message meant for people.
  console.error(`koers: ${err.message}`);
  process.exit(1);
}
