// The registry (TypeScript) and app.operaties (SQL) must agree on every operation's kind and
// section; a drift would let a door check one rule and the database another.
import { operations } from "../registry.ts";
import type { Sql } from "./connection.ts";

export async function checkRegistry(sql: Sql): Promise<void> {
  const rows = await sql`select naam, schrijft, sectie, vereist_org from app.operaties`;
  const inSql = new Map(rows.map((r) => [r.naam as string, r]));
  const problems: string[] = [];
  for (const o of operations) {
    const r = inSql.get(o.name);
    if (!r) problems.push(`${o.name} is missing from app.operaties`);
    else if (r.schrijft !== o.writes || r.sectie !== o.section || r.vereist_org !== (o.requiresOrg ?? true)) {
      problems.push(`${o.name}: registry says schrijft=${o.writes} sectie=${o.section}, ` +
        `app.operaties says schrijft=${r.schrijft} sectie=${r.sectie}`);
    }
  }
  if (problems.length) throw new Error(`operation registry and database disagree:\n  ${problems.join("\n  ")}`);
}
