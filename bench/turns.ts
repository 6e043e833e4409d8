// What a door call costs PostgreSQL when its connections take turns: the same calls, one after
// another (never two at once), over 1, 2, 4 and 10 connections of one postgres.js pool, which
// hands each call to the connection idle longest. CPU of every PostgreSQL process per call; and
// the same for the bare query of wie_ben_ik and team (bench/bare-queries.ts, as the superuser).
//
//   BENCH_DATABASE_URL=postgres://postgres:...@127.0.0.1:PORT/postgres node --import tsx bench/turns.ts
//   TURNS_OPERATION=team TURNS_CONNECTIONS=1,10 ...     another operation, other pool sizes
//
// It needs a server on this machine (its processes' CPU is read from /proc) holding the
// benchmark's database (koers_bench, made by `npm run bench`); it works on a copy of that
// database, made and dropped here, so the benchmark's data set stays as it was. See
// bench/README.md ("Where the time goes").
import postgres from "postgres";
import { doorUrl } from "../src/db/connection.ts";
import * as q from "./bare-queries.ts";
import { parentPid, postgresCpuUs } from "./cpu.ts";

const base = process.env.BENCH_DATABASE_URL;
if (!base) throw new Error("set BENCH_DATABASE_URL to a server on this machine that holds koers_bench");
const operation = process.env.TURNS_OPERATION ?? "wie_ben_ik";
const sizes = (process.env.TURNS_CONNECTIONS ?? "1,2,4,10").split(",").map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n >= 1 && n <= 100)) {
  throw new Error(`TURNS_CONNECTIONS must be whole numbers from 1 to 100, separated by commas, got "${process.env.TURNS_CONNECTIONS}"`);
}
const CALLS = 2000, ROUNDS = 3;
const at = (database: string) => { const u = new URL(base); u.pathname = `/${database}`; return u.toString(); };

const server = postgres(at("postgres"), { max: 1, onnotice: () => {} });
await server`drop database if exists koers_turns`;
await server`create database koers_turns template koers_bench`;
const admin = postgres(at("koers_turns"), { max: 1, onnotice: () => {} });
try {
  const [{ org, user }] = await admin`select bench.org_id(1) as org, bench.user_id(1, 1) as "user"` as unknown as [{ org: string; user: string }];
  await admin`select beheer.sleutel_aanmaken(${org}, ${user}, sha256('turns'::bytea), 'koers_live_…turn')`;
  const [{ pid }] = await admin`select pg_backend_pid() as pid` as unknown as [{ pid: number }];
  const postmaster = parentPid(pid);
  // The door role is named after the database it was made for: the copy's door connects as koers_bench's.
  const url = (await doorUrl(at("koers_bench"))).replace(/\/koers_bench(?=$|\?)/, "/koers_turns");
  const parameters = operation === "wie_ben_ik" ? {} : { org_id: org };
  const [{ key }] = await admin`select id as key from app_private.api_sleutels where hash = sha256('turns'::bytea)` as unknown as [{ key: string }];
  const bare = operation === "wie_ben_ik" ? { query: q.wieBenIk, parameters: [org, user, key] }
    : operation === "team" ? { query: q.team, parameters: [org] } : null;
  console.log(`${operation}: ${CALLS} calls one after another per round, ${ROUNDS} rounds per pool size (database copy koers_turns)`);
  const measure = async (label: string, sql: postgres.Sql, call: () => Promise<void>, n: number) => {
    await Promise.all(Array.from({ length: n }, call));  // every connection open
    for (let i = 0; i < 200; i++) await call();           // and warm
    const perCall: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const before = postgresCpuUs(postmaster);
      for (let i = 0; i < CALLS; i++) await call();
      perCall.push((postgresCpuUs(postmaster) - before) / CALLS);
    }
    console.log(`  ${label} ${String(n).padStart(2)} connection${n === 1 ? " " : "s"} in turn: ` +
                `${perCall.map((x) => x.toFixed(0)).join(", ")} us of PostgreSQL CPU per call`);
    await sql.end();
  };
  for (const n of sizes) {
    const sql = postgres(url, { max: n, onnotice: () => {},
      connection: { "koers.limiet": "100000000", "koers.limiet_adres": "100000000", "koers.limiet_venster": "60" } });
    await measure("door", sql, async () => {
      const [row] = await sql`select api.aanroep('rest', sha256('turns'::bytea), ${operation}, ${sql.json(parameters)}, null, 'turns', '127.0.0.1') as r`;
      const status = (row!.r as { status: number }).status;
      if (status !== 200) throw new Error(`${operation} answered ${status}: ${JSON.stringify(row!.r)}`);
    }, n);
    if (bare) {
      const bareSql = postgres(at("koers_turns"), { max: n, onnotice: () => {} });
      await measure("bare", bareSql, async () => { await bareSql.unsafe(bare.query, bare.parameters, { prepare: true }); }, n);
    }
  }
} finally {
  await admin.end();
  // "with (force)": a pool left open by a failed call would otherwise keep the copy.
  await server`drop database if exists koers_turns with (force)`;
  await server.end();
}
