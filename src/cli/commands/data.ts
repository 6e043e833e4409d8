// Loading data: an organisation from a JSON file (koers import) and the demo organisation.
import fs from "node:fs";
import type { Command } from "../command.ts";
import { print, requireOption, UsageError } from "../options.ts";
import { progress, withDatabase } from "../database.ts";

export const dataCommands: Command[] = [
  {
    words: ["import"], usage: "--org O FILE.json | --schema", positionals: true,
    about: "Loads a file of people, teams, priorities, KPIs, tasks and more (docs/import.md), all or nothing; every " +
      "fault is named with its place. Running it again adds nothing twice. With --schema it prints the file's JSON Schema.",
    run: async ({ values: v, positionals, json }) => {
      if (v.schema) {
        console.log(JSON.stringify((await import("../../import/schema.ts")).importSchema, null, 2));
        return;
      }
      const org = requireOption(v, "org");
      const [file, ...more] = positionals;
      if (!file) throw new UsageError("name the file to import: koers import --org O FILE.json");
      if (more.length > 0) throw new UsageError("import takes one file");
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
      }
      const { importData, parseImportFile, totals } = await import("../../import/run.ts");
      const parsed = parseImportFile(text);
      const outcome = "fouten" in parsed ? { ok: false as const, fouten: parsed.fouten }
        : await withDatabase((sql) => importData(sql, org, parsed.file), progress);
      if (!outcome.ok) {
        if (json) console.log(JSON.stringify({ fouten: outcome.fouten }, null, 2));
        else {
          console.error(`koers: ${file} has ${outcome.fouten.length} fault${outcome.fouten.length === 1 ? "" : "s"}; nothing was imported.`);
          for (const f of outcome.fouten) console.error(`  ${f.pad || "/"}: ${f.bericht}`);
        }
        process.exit(1);
      }
      const t = totals(outcome.aantallen);
      print(json, { org_id: outcome.orgId, aantallen: outcome.aantallen, totaal: t },
        `imported ${file}: ${t.nieuw} new, ${t.bijgewerkt} updated, ${t.ongewijzigd} unchanged\n` +
        Object.entries(outcome.aantallen).map(([kind, c]) =>
          `  ${kind}: ${c.nieuw ?? 0} new, ${c.bijgewerkt ?? 0} updated, ${c.ongewijzigd ?? 0} unchanged`).join("\n"));
    },
  },
  {
    words: ["demo"], usage: "",
    about: "Loads the demo organisation, switches REST on, releases every section and prints a key and curl lines to " +
      "try, at the address the service runs on. Harmless to run again.",
    run: async ({ json }) => {
      const [{ createApiKey }, { values }, { operations, restPath }, { importData, totals }, demo, { serviceAddress }] = await Promise.all([
        import("../../api-key.ts"), import("../../choices.ts"), import("../../registry.ts"), import("../../import/run.ts"),
        import("../../import/demo.ts"), import("../../db/connection.ts")]);
      const apiKey = createApiKey();
      const r = await withDatabase(async (sql) => {
        // Two demos at once make one organisation.
        await sql`select pg_advisory_lock(hashtext('koers:demo'))`;
        const [{ today }] = await sql`select to_char((app_hidden.nu() at time zone 'Europe/Amsterdam')::date, 'YYYY-MM-DD') as today` as unknown as [{ today: string }];
        const [existing] = await sql`select org_id from app.organisaties where lower(naam) = lower(${demo.DEMO_ORG})`;
        const orgId: string = existing?.org_id ?? (await sql`select beheer.org_aanmaken(${demo.DEMO_ORG}) as r`)[0]!.r.org_id;
        const outcome = await importData(sql, orgId, demo.shiftDemo(demo.readDemo(), today));
        if (!outcome.ok) throw new Error(`the demo file does not import: ${JSON.stringify(outcome.fouten.slice(0, 5))}`);
        const [key] = await sql`select beheer.sleutel_aanmaken(${orgId}, beheer.lid(${orgId}, ${demo.DEMO_OWNER}), ${apiKey.hash}, ${apiKey.hint}) as r`;
        await sql`select beheer.koppeling_zetten(${orgId}, 'rest', true, false)`;
        await sql`select beheer.secties_zetten(${orgId}, ${values("sectie") as string[]}::text[], true)`;
        const [owner] = await sql`select naam from app.accounts where lower(email) = ${demo.DEMO_OWNER}`;
        return { orgId, aantallen: outcome.aantallen, keyId: key!.r.key_id as string, owner: owner!.naam as string,
          baseUrl: await serviceAddress(sql) };
      }, progress);
      // The reads that need nothing but org_id and the registry's example parameters.
      const urls = operations.filter((o) => !o.writes && !o.onlyMcp &&
        Object.entries(o.parameters).every(([name, p]) => name === "org_id" || !p.required || o.example?.[name] !== undefined))
        .map((o) => {
          const query = new URLSearchParams({ ...(o.requiresOrg === false ? {} : { org_id: r.orgId }), ...o.example });
          return `${r.baseUrl}${restPath(o)}${query.size ? `?${query}` : ""}`;
        });
      const curl = urls.map((u) => `curl -H "Authorization: Bearer ${apiKey.key}" "${u}"`);
      const t = totals(r.aantallen);
      print(json, { org_id: r.orgId, organisatie: demo.DEMO_ORG, sleutel: apiKey.key, key_id: r.keyId, namens: r.owner,
        base_url: r.baseUrl, aantallen: r.aantallen, curl },
        `demo organisation: ${demo.DEMO_ORG} (org_id ${r.orgId}): ${t.nieuw} new, ${t.bijgewerkt} updated, ${t.ongewijzigd} unchanged\n` +
        `REST door on, all sections released.\n\n` +
        `API key acting as ${r.owner} (owner), shown once:\n${apiKey.key}\n\n` +
        `With the service running (npm start), try:\n${curl.map((c) => `  ${c}`).join("\n")}`);
    },
  },
];
