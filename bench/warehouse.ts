// Part 3c of `npm run bench`: a full read of rapportage.taken over a warehouse login (the
// organisation's owner, SCRAM over TCP, row-level security and every figure of the task
// definition), against a plain select of the columns it shares with app.taken as the superuser.
// Both are fetched whole to the client; the medians of interleaved rounds are compared.
import postgres from "postgres";
import { newPassword, scramVerifier } from "../src/warehouse/scram.ts";

export interface WarehouseFigure { name: string; value: string; target: string; ok: boolean; note?: string }

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };

export async function warehouseRead(sql: postgres.Sql, adminUrl: string, org: string, owner: string, rounds: number): Promise<WarehouseFigure> {
  const name = "all tasks over a warehouse login / plain select";
  const [view] = await sql`select 1 from pg_class where relnamespace = 'rapportage'::regnamespace and relname = 'taken'`;
  if (!view) return { name, value: "not built yet", target: "<= 2x", ok: false, note: "no view rapportage.taken (it needs app_hidden.def_taken)" };
  await sql`select beheer.koppeling_zetten(${org}, 'warehouse', true, null)`;
  const password = newPassword();
  const [{ r: login }] = await sql`select beheer.warehouse_aanmaken(${org}, ${owner}, ${scramVerifier(password)}, 2) as r` as
    unknown as [{ r: { id: string; gebruiker: string } }];
  const url = new URL(adminUrl);
  url.username = login.gebruiker;
  url.password = password;
  const wh = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    const viewColumns = (await wh.unsafe("select * from rapportage.taken limit 0")).columns.map((c) => c.name);
    const tableColumns = new Set((await sql`select attname from pg_attribute where attrelid = 'app.taken'::regclass
      and attnum > 0 and not attisdropped`).map((r) => r.attname as string));
    const shared = viewColumns.filter((c) => tableColumns.has(c)).map((c) => `"${c}"`).join(", ");
    const read = async (viaLogin: boolean) => {
      const t0 = performance.now();
      const rows = viaLogin ? await wh.unsafe("select * from rapportage.taken")
        : await sql.unsafe(`select ${shared} from app.taken where org_id = $1`, [org]);
      return { ms: performance.now() - t0, rows: rows.length };
    };
    await read(true); await read(false);
    const viaLogin: number[] = [], plain: number[] = [];
    let counts = { login: 0, plain: 0 };
    for (let i = 0; i < rounds; i++) {
      for (const l of i % 2 ? [false, true] : [true, false]) {
        const r = await read(l);
        (l ? viaLogin : plain).push(r.ms);
        counts = { ...counts, [l ? "login" : "plain"]: r.rows };
      }
    }
    const a = median(viaLogin), b = median(plain);
    return { name, value: `${(a / b).toFixed(2)}x`, target: "<= 2x", ok: a / b <= 2 && counts.login === counts.plain,
      note: `rapportage.taken: ${counts.login} rows in ${a.toFixed(0)} ms (${viewColumns.length} columns); ` +
            `app.taken: ${counts.plain} rows in ${b.toFixed(0)} ms` };
  } finally {
    await wh.end();
    await sql`select beheer.warehouse_intrekken(${login.id})`;
  }
}
