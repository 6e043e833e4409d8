// The registry (TypeScript) and app.operaties (SQL) must agree on every operation's kind and
// section; a drift would let a door check one rule and the database another.
import { operaties } from "../registry.ts";
import type { Sql } from "./connection.ts";

export async function controleerRegistry(sql: Sql): Promise<void> {
  const rijen = await sql`select naam, schrijft, sectie, vereist_org from app.operaties`;
  const inSql = new Map(rijen.map((r) => [r.naam as string, r]));
  const fouten: string[] = [];
  for (const o of operaties) {
    const r = inSql.get(o.naam);
    if (!r) fouten.push(`${o.naam} is missing from app.operaties`);
    else if (r.schrijft !== o.schrijft || r.sectie !== o.sectie || r.vereist_org !== (o.vereistOrg ?? true)) {
      fouten.push(`${o.naam}: registry says schrijft=${o.schrijft} sectie=${o.sectie}, ` +
        `app.operaties says schrijft=${r.schrijft} sectie=${r.sectie}`);
    }
  }
  if (fouten.length) throw new Error(`operation registry and database disagree:\n  ${fouten.join("\n  ")}`);
}
