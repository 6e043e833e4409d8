// The warehouse door's logins (docs/warehouse.md): PostgreSQL logins that read the views of
// schema rapportage for one member of one organisation. The password is made here and shown
// once; the database receives only its SCRAM-SHA-256 verifier.
import type { Command } from "../command.ts";
import { numberOption, print, requireOption, UsageError, uuidOption } from "../options.ts";
import { one, withDatabase } from "../database.ts";

const iso = (t: string | null) => (t ? new Date(t).toISOString() : "never");

export const warehouseCommands: Command[] = [
  {
    words: ["warehouse", "create"], usage: "--org O --user U [--limiet N]",
    about: "Creates a read-only PostgreSQL login for a data warehouse or BI tool, acting for that member (like an API key; " +
      "the warehouse door must be on: koers door set --door warehouse). Prints once the user, the password and a " +
      "postgresql:// URL (--json: id, gebruiker, wachtwoord, url). --limiet: connections at once (default 5).",
    run: async ({ values: v, json }) => {
      const [org, user] = [requireOption(v, "org"), requireOption(v, "user")];
      const limit = v.limiet === undefined ? 5 : numberOption(v, "limiet", true);
      if (limit < 1 || limit > 100) throw new UsageError("--limiet must be a whole number from 1 to 100");
      const { newPassword, scramVerifier } = await import("../../warehouse/scram.ts");
      const password = newPassword();
      const { loginAddress } = await import("../../warehouse/login.ts");
      const { r, host, port, database, url } = await withDatabase(async (sql) => {
        const r = await one(sql`
          select beheer.warehouse_aanmaken(o.id, beheer.lid(o.id, ${user}), ${scramVerifier(password)}, ${limit}) as r
          from (select beheer.org(${org}) as id) o`);
        return { r, ...loginAddress(sql, r.gebruiker, password) };
      });
      print(json, { id: r.id, gebruiker: r.gebruiker, wachtwoord: password, url },
        `warehouse login created (id ${r.id}), acting for ${user}, at most ${r.verbindingen_max} connections\n` +
        `host ${host}  port ${port}  database ${database}  user ${r.gebruiker}\n` +
        `password (shown once, store it now): ${password}\n` +
        `url: ${url}\n` +
        `psql: psql "${url}" -c "select * from rapportage.wie_ben_ik"`);
    },
  },
  {
    words: ["warehouse", "list"], usage: "--org O",
    about: "Lists an organisation's warehouse logins: id, user, member, created, last seen, connected now (connections " +
      "of its limit), revoked. Never a password.",
    run: async ({ values: v, json }) => {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) => {
        await sql`select beheer.warehouse_bijhouden()`;
        return (await sql`select r from beheer.warehouse_logins(beheer.org(${org})) r`).map((x) => x.r);
      });
      print(json, rows, rows.map((w) => `${w.id}  ${w.gebruiker}  ${w.naam} <${w.email}>  created ${iso(w.aangemaakt_op)}  ` +
        `last seen ${iso(w.laatst_gezien_op)}  ` +
        (w.ingetrokken_op ? `revoked ${iso(w.ingetrokken_op)}` : `connected now: ${w.verbindingen}/${w.verbindingen_max}`))
        .join("\n") || "(no warehouse logins)");
    },
  },
  {
    words: ["warehouse", "revoke"], usage: "--id W",
    about: "Ends a warehouse login: the next query of an open session is refused and no new session starts.",
    run: async ({ values: v, json }) => {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => one(sql`select beheer.warehouse_intrekken(${id}) as r`));
      print(json, r, `warehouse login ${r.gebruiker} (${r.id}) revoked`);
    },
  },
];
