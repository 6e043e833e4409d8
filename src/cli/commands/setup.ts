// Running Koers and setting up organisations: the service, the worker, migrations, the data
// folder; organisations, members, passwords, keys, door switches, sections, the log and the AI
// connections. Modules beyond the command table are loaded in the handler that needs them.
import type { Command } from "../command.ts";
import { limitOption, print, requireOption, UsageError, uuidOption } from "../options.ts";
import { one, withDatabase } from "../database.ts";
import { readNewPassword } from "../password.ts";
import { values } from "../../choices.ts";

const sections = values("sectie").join(", ");

/** Both words of a command that has an on and an off form. */
function section(release: boolean): Command {
  return {
    words: ["section", release ? "release" : "withdraw"],
    usage: "--org O SECTION...",
    about: `${release ? "Releases sections for" : "Withdraws sections from"} the doors: ${sections}.`,
    positionals: true,
    run: async ({ values: v, positionals, json }) => {
      const org = requireOption(v, "org");
      if (positionals.length === 0) throw new UsageError("name at least one section");
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.secties_zetten(beheer.org(${org}), ${positionals}::text[], ${release}) as r`));
      print(json, r, Object.entries(r).map(([s, on]) => `${s}: ${on ? "released" : "withdrawn"}`).join("\n"));
    },
  };
}

export const setupCommands: Command[] = [
  {
    words: ["serve"], usage: "",
    about: "Runs the service: the REST door, the AI connection and the background worker (same as npm start).",
    run: async () => { await import("../../main.ts"); },
  },
  {
    words: ["worker"], usage: "",
    about: "Runs only the background worker, for deployments that scale it separately.",
    run: async () => { await import("../../worker-main.ts"); },
  },
  {
    words: ["migrate"], usage: "",
    about: "Brings the database up to date (tables, SQL code and reference data).",
    run: async ({ json }) => {
      await withDatabase(async () => {});
      print(json, { gemigreerd: true }, "database is up to date");
    },
  },
  {
    words: ["data", "remove"], usage: "[--ja]",
    about: "Removes the embedded PostgreSQL's cluster of this data folder (KOERS_DATA_DIR), also where it is kept in " +
      "/var/lib/koers, and clusters there whose data folder is gone (a removed clone). Without --ja it only lists " +
      "what it would remove. Refused while Koers runs on the folder, and with DATABASE_URL.",
    run: async ({ values: v, json }) => {
      const [{ readConfig }, { removeData }] = await Promise.all([import("../../config.ts"), import("../../db/embedded.ts")]);
      const config = readConfig();
      if (config.databaseUrl) {
        throw new Error("DATABASE_URL is set: Koers keeps no cluster of its own then; remove the database on that server.");
      }
      const removed = await removeData(config.dataDir, { dryRun: !v.ja });
      print(json, { verwijderd: v.ja ? removed : [], zou_verwijderen: v.ja ? [] : removed },
        removed.length === 0 ? "nothing to remove"
          : `${v.ja ? "removed" : "would remove (add --ja to remove it)"}:\n${removed.map((p) => `  ${p}`).join("\n")}`);
    },
  },
  {
    words: ["org", "create"], usage: "--naam N [--tijdzone TZ]",
    about: "Creates an organisation (time zone default Europe/Amsterdam). Names are unique, ignoring letter case.",
    run: async ({ values: v, json }) => {
      const name = requireOption(v, "naam");
      const r = await withDatabase(async (sql) => one(sql`select beheer.org_aanmaken(${name}, ${v.tijdzone ?? "Europe/Amsterdam"}) as r`));
      print(json, r, `organisation created: ${r.naam} (org_id ${r.org_id})`);
    },
  },
  {
    words: ["org", "rename"], usage: "--org O --naam N",
    about: "Gives an organisation another name (unique, ignoring letter case).",
    run: async ({ values: v, json }) => {
      const [org, name] = [requireOption(v, "org"), requireOption(v, "naam")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.org_hernoemen(beheer.org(${org}), ${name}) as r`));
      print(json, r, `organisation renamed: ${r.naam} (org_id ${r.org_id})`);
    },
  },
  {
    words: ["org", "list"], usage: "",
    about: "Lists the organisations: id, name, members, doors and released sections.",
    run: async ({ json }) => {
      const rows = await withDatabase(async (sql) => (await sql`select r from beheer.organisaties() r`).map((x) => x.r));
      print(json, rows, rows.map((o) => `${o.org_id}  ${o.naam}  (${o.leden} member${o.leden === 1 ? "" : "s"}; ` +
        `${o.koppelingen.filter((k: { aan: boolean }) => k.aan).map((k: { door: string; alleen_lezen: boolean }) =>
          `${k.door} on${k.alleen_lezen ? ", read only" : ""}`).join("; ") || "doors off"}; ` +
        `released: ${o.secties.join(" ") || "none"})`).join("\n") || "(no organisations)");
    },
  },
  {
    words: ["user", "create"], usage: "--org O --naam N --email E --rol R [--functietitel T] [--team NAAM] [--wachtwoord P]",
    about: `Adds a member; R is ${values("rol").join(", ")}. A person already known by e-mail joins with the same ` +
      "account and its own password (--wachtwoord is then refused: koers user password sets one). The team is created when new.",
    run: async ({ values: v, json }) => {
      const [org, name, email, role] = [requireOption(v, "org"), requireOption(v, "naam"), requireOption(v, "email"), requireOption(v, "rol")];
      const hash = v.wachtwoord ? await (await import("../../oauth/password.ts")).hashPassword(v.wachtwoord) : null;
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.lid_aanmaken(beheer.org(${org}), ${name}, ${email}, ${role},
                                   ${v.functietitel ?? null}, ${v.team ?? null}, ${hash}) as r`));
      print(json, r, `user created: ${r.naam} <${r.email}> as ${r.rol} (user_id ${r.user_id})`);
    },
  },
  {
    words: ["user", "password"], usage: "--email E",
    about: "Sets the password a person signs in with (the AI connection), in every organisation. It is read from " +
      "standard input: typed at a prompt that does not show it, or piped in (its first line); never an argument.",
    run: async ({ values: v, json }) => {
      const email = requireOption(v, "email");
      const password = await readNewPassword(email);
      const hash = await (await import("../../oauth/password.ts")).hashPassword(password);
      const r = await withDatabase(async (sql) => one(sql`select beheer.wachtwoord_zetten(${email}, ${hash}) as r`));
      print(json, r, `password set for ${r.naam} <${r.email}>`);
    },
  },
  {
    words: ["user", "list"], usage: "--org O",
    about: "Lists the members of an organisation: user id, role, name, e-mail, job title and team.",
    run: async ({ values: v, json }) => {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) => (await sql`select r from beheer.leden(beheer.org(${org})) r`).map((x) => x.r));
      print(json, rows, rows.map((m) => `${m.user_id}  ${m.rol.padEnd(8)}  ${m.naam} <${m.email}>` +
        `${m.functietitel ? `, ${m.functietitel}` : ""}${m.team ? `, team ${m.team}` : ""}${m.actief ? "" : " (inactive)"}`)
        .join("\n") || "(no members)");
    },
  },
  {
    words: ["user", "update"], aliases: ["lid wijzigen"],
    usage: "--org O --user U [--rol R] [--team T] [--functietitel F] [--actief ja|nee]",
    about: "Changes what is given of a member: --team geen takes someone out of their team, --functietitel \"\" clears " +
      "the title; --actief nee also stops the person's keys. The last active owner cannot be demoted or deactivated.",
    run: async ({ values: v, json }) => {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      if ([v.rol, v.team, v.functietitel, v.actief].every((x) => x === undefined)) {
        throw new UsageError("give at least one of --rol, --team, --functietitel and --actief");
      }
      if (v.actief !== undefined && v.actief !== "ja" && v.actief !== "nee") throw new UsageError("--actief must be ja or nee");
      const active = v.actief === undefined ? null : v.actief === "ja";
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.lid_wijzigen(beheer.org(${org}), ${user}, ${v.rol ?? null}, ${v.team ?? null},
                                   ${v.functietitel ?? null}, ${active}) as r`));
      print(json, r, `${r.naam}: ${r.rol}${r.functietitel ? `, ${r.functietitel}` : ""}, team ${r.team?.naam ?? "none"}` +
        `${r.actief ? "" : ", inactive"}`);
    },
  },
  {
    words: ["key", "create"], usage: "--org O --user U",
    about: "Creates an API key acting as that member. The key is printed once; only its hash is stored.",
    run: async ({ values: v, json }) => {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      const apiKey = (await import("../../api-key.ts")).createApiKey();
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.sleutel_aanmaken(o.id, beheer.lid(o.id, ${user}), ${apiKey.hash}, ${apiKey.hint}) as r
        from (select beheer.org(${org}) as id) o`));
      print(json, { ...r, sleutel: apiKey.key }, `API key (shown once, store it now):\n${apiKey.key}\nkey_id ${r.key_id}`);
    },
  },
  {
    words: ["key", "list"], usage: "--org O [--user U]",
    about: "Lists API keys: key id, hint (the last characters), whose it is, created and revoked. Never the key itself.",
    run: async ({ values: v, json }) => {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) => (await sql`
        select r from (select beheer.org(${org}) as id) o,
          beheer.sleutels(o.id, case when ${v.user ?? null}::text is not null then beheer.lid(o.id, ${v.user ?? null}) end) r`)
        .map((x) => x.r));
      print(json, rows, rows.map((k) => `${k.key_id}  ${k.hint}  ${k.naam} <${k.email}>  ` +
        `created ${new Date(k.aangemaakt_op).toISOString()}` +
        (k.ingetrokken_op ? `, revoked ${new Date(k.ingetrokken_op).toISOString()}` : ", active")).join("\n") || "(no keys)");
    },
  },
  {
    words: ["key", "revoke"], usage: "--key-id K",
    about: "Revokes a key: from then on it answers 401 sleutel_ingetrokken.",
    run: async ({ values: v, json }) => {
      const id = uuidOption(v, "key-id");
      const r = await withDatabase(async (sql) => one(sql`select beheer.sleutel_intrekken(${id}) as r`));
      print(json, r, `key ${r.key_id} revoked`);
    },
  },
  {
    words: ["door", "set"], usage: "--org O --door rest|mcp|warehouse --aan|--uit [--alleen-lezen|--schrijven]",
    about: "Switches a door (rest, mcp or warehouse) on or off for an organisation, optionally read only.",
    run: async ({ values: v, json }) => {
      const [org, door] = [requireOption(v, "org"), requireOption(v, "door")];
      if (!v.aan === !v.uit) throw new UsageError("give exactly one of --aan and --uit");
      if (v["alleen-lezen"] && v.schrijven) throw new UsageError("give at most one of --alleen-lezen and --schrijven");
      const readOnly = v["alleen-lezen"] ? true : v.schrijven ? false : null;
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.koppeling_zetten(beheer.org(${org}), ${door}, ${v.aan ?? false}, ${readOnly}) as r`));
      print(json, r, `door ${r.door}: ${r.aan ? "on" : "off"}${r.alleen_lezen ? ", read only" : ""}`);
    },
  },
  section(true),
  section(false),
  {
    words: ["log"], usage: "--org O [--limit N]",
    about: "Shows the organisation's call log, newest first (default 50), refused calls included, with each call's " +
      "request id (the X-Request-Id it was answered with).",
    run: async ({ values: v, json }) => {
      const [org, limit] = [requireOption(v, "org"), limitOption(v)];
      const rows = await withDatabase(async (sql) => (await sql`select r from beheer.log(beheer.org(${org}), ${limit}) r`).map((x) => x.r));
      print(json, rows, rows.map((r) =>
        `${new Date(r.tijdstip).toISOString()}  ${r.door.padEnd(4)} ${String(r.status).padEnd(3)} ` +
        `${(r.fout_code ?? "").padEnd(22)} ${r.operatie}  ${r.duur_ms ?? ""} ms${r.verzoek_id ? `  request ${r.verzoek_id}` : ""}`)
        .join("\n") || "(no calls)");
    },
  },
  {
    words: ["mcp", "tokens"], usage: "--org O --user U",
    about: "Lists a person's connected AI assistants: connection id, state, assistant, its redirect address, when " +
      "connected and last refreshed. No token is ever printed.",
    run: async ({ values: v, json }) => {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      const rows = await withDatabase(async (sql) => one(sql`
        select beheer.mcp_verbindingen(beheer.lid(beheer.org(${org}), ${user})) as r`)) as
        { id: string; assistent: string; redirect_uri: string; aangemaakt_op: string; vernieuwd_op: string | null;
          actief: boolean; reden_intrekking: string | null }[];
      print(json, rows, rows.map((r) =>
        `${r.id}  ${r.actief ? "active " : r.reden_intrekking ? "revoked" : "expired"}  ${r.assistent}  ${r.redirect_uri}  ` +
        `connected ${new Date(r.aangemaakt_op).toISOString()}` +
        (r.vernieuwd_op ? `, last refreshed ${new Date(r.vernieuwd_op).toISOString()}` : "")).join("\n") || "(no connected assistants)");
    },
  },
  {
    words: ["mcp", "revoke"], aliases: ["mcp intrekken"], usage: "--id T",
    about: "Revokes an assistant's connection T (all its tokens): its next call answers 401 and the person signs in again.",
    run: async ({ values: v, json }) => {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => one(sql`select beheer.mcp_verbinding_intrekken(${id}) as r`));
      print(json, r, `connection ${r.id} revoked`);
    },
  },
];
