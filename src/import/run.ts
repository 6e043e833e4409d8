// Running an import: the file's shape checked here, references and rules by the database, all
// faults reported together; then everything written in one transaction, or nothing.
import type postgres from "postgres";
import { checkShape, mergeFaults, type Fault } from "./validate.ts";

/** Per kind of item: how many were new, updated or unchanged. */
export type Counts = Record<string, Partial<Record<"nieuw" | "bijgewerkt" | "ongewijzigd", number>>>;

/** The kinds in the order the database writes them (and a person reads the file). */
const KINDS = ["teams", "mensen", "processen", "rollen", "projecten", "prioriteiten", "kernresultaten", "kpis", "kpi_doelen",
  "kpi_metingen", "taken", "opmerkingen", "uren", "weektaken", "reflecties", "waarderingen", "gesprekken", "sessienotities",
  "strategie"];
const inOrder = (counts: Counts): Counts => Object.fromEntries(Object.entries(counts)
  .sort(([a], [b]) => (KINDS.indexOf(a) >>> 0) - (KINDS.indexOf(b) >>> 0)));

export type ImportOutcome = { ok: true; orgId: string; aantallen: Counts } | { ok: false; fouten: Fault[] };

class Refused extends Error {
  constructor(readonly fouten: Fault[]) { super("import refused"); }
}

/** Reads a file as JSON; a file that is no JSON is one fault at the top of the file. */
export function parseImportFile(text: string): { file: unknown } | { fouten: Fault[] } {
  try {
    return { file: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch (e) {
    return { fouten: [{ pad: "", bericht: `Het bestand is geen geldige JSON: ${(e as Error).message}` }] };
  }
}

/**
 * Imports into an organisation (id or name). The database's progress lines on a large
 * file arrive as notices on the connection (see the CLI).
 */
export async function importData(sql: postgres.Sql, org: string, file: unknown): Promise<ImportOutcome> {
  const shape = checkShape(file);
  try {
    return await sql.begin(async (tx) => {
      const [row] = await tx`
        select o.id as org_id, beheer.importeren(o.id, ${tx.json((shape.forDatabase ?? null) as postgres.JSONValue)},
                                                 ${shape.faults.length === 0}) as r
        from (select beheer.org(${org}) as id) o`;
      const r = row!.r as { fouten?: Fault[]; aantallen?: Counts };
      const fouten = mergeFaults(shape.faults, r.fouten ?? [], shape.order);
      if (fouten.length > 0) throw new Refused(fouten);
      return { ok: true as const, orgId: row!.org_id as string, aantallen: inOrder(r.aantallen ?? {}) };
    });
  } catch (e) {
    if (e instanceof Refused) return { ok: false, fouten: e.fouten };
    throw e;
  }
}

/** Totals over all kinds. */
export function totals(counts: Counts): { nieuw: number; bijgewerkt: number; ongewijzigd: number } {
  const t = { nieuw: 0, bijgewerkt: 0, ongewijzigd: 0 };
  for (const c of Object.values(counts)) {
    t.nieuw += c.nieuw ?? 0;
    t.bijgewerkt += c.bijgewerkt ?? 0;
    t.ongewijzigd += c.ongewijzigd ?? 0;
  }
  return t;
}
