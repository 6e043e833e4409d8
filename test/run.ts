// `npm test`: type checking, the pgTAP files (pg_prove) and the TypeScript tests (node's test
// runner, real HTTP on loopback), against a throwaway database: a cluster this script starts
// from the machine's PostgreSQL binaries, or the server in TEST_DATABASE_URL.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { migrate } from "../src/db/migrate.ts";
import { startCluster, type Cluster } from "./cluster.ts";

const wortel = path.resolve(import.meta.dirname, "..");
const log = (r: string) => console.log(`\n== ${r}`);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; uit: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: wortel, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let uit = "";
    p.stdout.on("data", (d) => { uit += d; process.stdout.write(d); });
    p.stderr.on("data", (d) => { uit += d; process.stderr.write(d); });
    p.on("close", (code) => resolve({ code: code ?? 1, uit }));
  });
}

function stop(bericht: string): never {
  console.error(`\nnpm test: ${bericht}`);
  process.exit(1);
}

let cluster: Cluster | null = null;
let exitCode = 0;
const begin = Date.now();
try {
  log("type checking (tsc)");
  const tsc = await run(path.join(wortel, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."]);
  if (tsc.code !== 0) stop("type checking failed");

  let serverUrl: (db: string) => string;
  if (process.env.TEST_DATABASE_URL) {
    const basis = new URL(process.env.TEST_DATABASE_URL);
    serverUrl = (db) => { const u = new URL(basis); u.pathname = `/${db}`; return u.toString(); };
    log(`using the server of TEST_DATABASE_URL (${basis.host})`);
  } else {
    log("starting a throwaway PostgreSQL cluster");
    cluster = await startCluster();
    serverUrl = cluster.url;
    console.log(`binaries: ${cluster.binDir}`);
  }

  const beheer = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  const [pgtap] = await beheer`select default_version from pg_available_extensions where name = 'pgtap'`;
  const [{ server_version: versie }] = await beheer`show server_version` as unknown as [{ server_version: string }];
  if (!pgtap) {
    await beheer.end();
    stop(`pgTAP is not installed for this PostgreSQL (${versie}). Install it, e.g. ` +
      `\`apt-get install postgresql-${versie.split(".")[0]}-pgtap\`. The SQL tests are never skipped.`);
  }
  if (spawnSync("pg_prove", ["--version"]).status !== 0) {
    await beheer.end();
    stop("pg_prove is not installed. Install it, e.g. `apt-get install libtap-parser-sourcehandler-pgtap-perl`.");
  }

  const sjabloon = `koers_t_${process.pid}`;
  await beheer.unsafe(`drop database if exists ${sjabloon}`);
  await beheer.unsafe(`create database ${sjabloon}`);
  log(`migrating the template database ${sjabloon}`);
  await migrate(serverUrl(sjabloon), { log: (r) => console.log(r) });

  const sqlDb = `${sjabloon}_sql`;
  await beheer.unsafe(`create database ${sqlDb} template ${sjabloon}`);
  const s = postgres(serverUrl(sqlDb), { max: 1, onnotice: () => {} });
  await s`create extension pgtap`;
  await s.end();

  log("pgTAP (pg_prove sql-tests/)");
  const u = new URL(serverUrl(sqlDb));
  const bestanden = fs.readdirSync(path.join(wortel, "sql-tests")).filter((f) => f.endsWith(".sql")).sort()
    .map((f) => `sql-tests/${f}`);
  const prove = await run("pg_prove", ["-h", u.hostname, "-p", u.port || "5432", "-U", decodeURIComponent(u.username),
    "-d", sqlDb, ...bestanden], { PGPASSWORD: decodeURIComponent(u.password) });
  const sqlTests = Number(/Tests=(\d+)/.exec(prove.uit)?.[1] ?? 0);
  const sqlOk = prove.code === 0 && /Result: PASS/.test(prove.uit);

  log("TypeScript tests (node --test, real HTTP on loopback)");
  const testBestanden = fs.readdirSync(path.join(wortel, "test")).filter((f) => f.endsWith(".test.ts")).sort()
    .map((f) => `test/${f}`);
  const node = await run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...testBestanden], {
    KOERS_TEST_SERVER_URL: serverUrl("postgres"), KOERS_TEST_TEMPLATE: sjabloon,
  });
  const geslaagd = Number(/ℹ pass (\d+)/.exec(node.uit)?.[1] ?? 0);
  const gefaald = Number(/ℹ fail (\d+)/.exec(node.uit)?.[1] ?? 0);
  const overgeslagen = Number(/ℹ skipped (\d+)/.exec(node.uit)?.[1] ?? 0) + Number(/ℹ todo (\d+)/.exec(node.uit)?.[1] ?? 0);

  await beheer.unsafe(`drop database if exists ${sqlDb}`);
  await beheer.unsafe(`drop database if exists ${sjabloon}`);
  await beheer.end();

  const sqlGefaald = [...prove.uit.matchAll(/Failed (\d+)\/\d+ subtests/g)].reduce((n, m) => n + Number(m[1]), 0)
    + (sqlOk ? 0 : 1) * Number(!/Failed \d+\/\d+ subtests/.test(prove.uit));
  const totaalGeslaagd = Math.max(0, sqlTests - sqlGefaald) + geslaagd;
  const totaalGefaald = sqlGefaald + gefaald + overgeslagen;
  if (!sqlOk || node.code !== 0 || overgeslagen > 0 || geslaagd === 0 || sqlTests === 0) exitCode = 1;
  console.log(`\npgTAP: ${sqlTests} tests ${sqlOk ? "passed" : "FAILED"}; TypeScript: ${geslaagd} passed, ` +
    `${gefaald} failed, ${overgeslagen} skipped; ${((Date.now() - begin) / 1000).toFixed(1)} s`);
  console.log(`${totaalGeslaagd} passed, ${totaalGefaald} failed`);
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  await cluster?.stop();
}
process.exit(exitCode);
