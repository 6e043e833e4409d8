// `npm test`: type checking, the pgTAP files (pg_prove) and the TypeScript tests (node's test
// runner, real HTTP on loopback), against a throwaway database: a cluster this script starts
// from the machine's PostgreSQL binaries, or the server in TEST_DATABASE_URL. First the Debian
// packages the tests need (test/prerequisites.ts): as root, what is missing is installed.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { migrate } from "../src/db/migrate.ts";
import { doorRoleName } from "../src/db/connection.ts";
import { startCluster, type Cluster } from "./cluster.ts";
import { ensurePrerequisites } from "./prerequisites.ts";

const root = path.resolve(import.meta.dirname, "..");
// `npm test -- sql-tests/120-taken.sql test/taken.test.ts` runs only those files (for work in
// progress; the result then says it is partial and exits 1 so it is never taken for a full run).
const only = process.argv.slice(2).map((f) => path.relative(root, path.resolve(f)));
for (const f of only) {
  if (!/^(sql-tests\/.+\.sql|test\/.+\.test\.ts)$/.test(f) || !fs.existsSync(path.join(root, f))) {
    console.error(`npm test: ${f} is not a file of sql-tests/ or a test/*.test.ts`);
    process.exit(2);
  }
}
const log = (r: string) => console.log(`\n== ${r}`);

/** Runs a command; its output streams through, or (quiet) is kept for the caller to print. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, quiet = false): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    p.stdout.on("data", (d) => { output += d; if (!quiet) process.stdout.write(d); });
    p.stderr.on("data", (d) => { output += d; if (!quiet) process.stderr.write(d); });
    p.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

function fail(message: string): never {
  console.error(`\nnpm test: ${message}`);
  process.exit(1);
}

let cluster: Cluster | null = null;
let exitCode = 0;
const startedAt = Date.now();
try {
  log("prerequisites (test/prerequisites.ts)");
  const problem = ensurePrerequisites((line) => console.log(`npm test: ${line}`));
  if (problem) fail(problem);

  log("type checking (tsc)");
  const tsc = await run(path.join(root, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."]);
  if (tsc.code !== 0) fail("type checking failed");

  let serverUrl: (db: string) => string;
  if (process.env.TEST_DATABASE_URL) {
    const base = new URL(process.env.TEST_DATABASE_URL);
    serverUrl = (db) => { const u = new URL(base); u.pathname = `/${db}`; return u.toString(); };
    log(`using the server of TEST_DATABASE_URL (${base.host})`);
  } else {
    log("starting a throwaway PostgreSQL cluster");
    cluster = await startCluster();
    serverUrl = cluster.url;
    console.log(`binaries: ${cluster.binDir}`);
  }

  const admin = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  const [pgtap] = await admin`select default_version from pg_available_extensions where name = 'pgtap'`;
  const [{ server_version: version }] = await admin`show server_version` as unknown as [{ server_version: string }];
  if (!pgtap) {
    await admin.end();
    fail(`pgTAP is not installed for this PostgreSQL (${version}). Install it, e.g. ` +
      `\`apt-get install postgresql-${version.split(".")[0]}-pgtap\`. The SQL tests are never skipped.`);
  }
  if (spawnSync("pg_prove", ["--version"]).status !== 0) {
    await admin.end();
    fail("pg_prove is not installed. Install it, e.g. `apt-get install libtap-parser-sourcehandler-pgtap-perl`.");
  }

  const template = `koers_t_${process.pid}`;
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  log(`migrating the template database ${template}`);
  await migrate(serverUrl(template), { log: (r) => console.log(r) });

  const sqlDb = `${template}_sql`;
  await admin.unsafe(`create database ${sqlDb} template ${template}`);
  const s = postgres(serverUrl(sqlDb), { max: 1, onnotice: () => {} });
  await s`create extension pgtap`;
  await s.end();

  // pgTAP and the TypeScript tests run side by side, and test files three at a time: much of
  // the TypeScript tests' time is spent waiting on the processes they start. pg_prove's output
  // is printed when it is done.
  log("pgTAP (pg_prove sql-tests/) and the TypeScript tests (node --test, real HTTP on loopback), side by side");
  const u = new URL(serverUrl(sqlDb));
  // sql-tests/000-setup.sql makes the helpers every other pgTAP file uses: it always runs first.
  const chosen = (files: string[]) => only.length ? files.filter((f) => only.includes(f)) : files;
  const sqlFiles = chosen(fs.readdirSync(path.join(root, "sql-tests")).filter((f) => f.endsWith(".sql")).sort()
    .map((f) => `sql-tests/${f}`));
  if (sqlFiles.length && sqlFiles[0] !== "sql-tests/000-setup.sql") sqlFiles.unshift("sql-tests/000-setup.sql");
  const testFiles = chosen(fs.readdirSync(path.join(root, "test")).filter((f) => f.endsWith(".test.ts")).sort()
    .map((f) => `test/${f}`));
  const none = { code: 0, output: "" };
  const [prove, node] = await Promise.all([
    sqlFiles.length ? run("pg_prove", ["-h", u.hostname, "-p", u.port || "5432", "-U", decodeURIComponent(u.username),
      "-d", sqlDb, ...sqlFiles], { PGPASSWORD: decodeURIComponent(u.password) }, true) : none,
    testFiles.length ? run(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=3", "--test-reporter=spec", ...testFiles], {
      KOERS_TEST_SERVER_URL: serverUrl("postgres"), KOERS_TEST_TEMPLATE: template,
    }) : none,
  ]);
  log("pgTAP output");
  process.stdout.write(prove.output);
  const sqlTests = Number(/Tests=(\d+)/.exec(prove.output)?.[1] ?? 0);
  // A partial run may choose no pgTAP file: then nothing of pgTAP ran, and nothing of it failed.
  const sqlOk = !sqlFiles.length || prove.code === 0 && /Result: PASS/.test(prove.output);

  const passed = Number(/ℹ pass (\d+)/.exec(node.output)?.[1] ?? 0);
  const failed = Number(/ℹ fail (\d+)/.exec(node.output)?.[1] ?? 0);
  const skipped = Number(/ℹ skipped (\d+)/.exec(node.output)?.[1] ?? 0) + Number(/ℹ todo (\d+)/.exec(node.output)?.[1] ?? 0);

  await admin.unsafe(`drop database if exists ${sqlDb}`);
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`drop role if exists ${doorRoleName(template)}`);
  await admin.end();

  const sqlFailed = [...prove.output.matchAll(/Failed (\d+)\/\d+ subtests/g)].reduce((n, m) => n + Number(m[1]), 0)
    + (sqlOk ? 0 : 1) * Number(!/Failed \d+\/\d+ subtests/.test(prove.output));
  const totalPassed = Math.max(0, sqlTests - sqlFailed) + passed;
  const totalFailed = sqlFailed + failed + skipped;
  if (only.length) {
    exitCode = sqlOk && node.code === 0 && skipped === 0 ? 3 : 1;
    console.log(`\nPARTIAL RUN of ${sqlFiles.length + testFiles.length} file(s): pgTAP ${sqlFiles.length ? (sqlOk ? "passed" : "FAILED") : "not run"}; ` +
      `TypeScript: ${passed} passed, ${failed} failed, ${skipped} skipped. Exit code 3 means every chosen file passed.`);
  } else if (!sqlOk || node.code !== 0 || skipped > 0 || passed === 0 || sqlTests === 0) exitCode = 1;
  console.log(`\npgTAP: ${sqlFiles.length ? `${sqlTests} tests ${sqlOk ? "passed" : "FAILED"}` : "not run"}; TypeScript: ${passed} passed, ` +
    `${failed} failed, ${skipped} skipped; ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  console.log(`${totalPassed} passed, ${totalFailed} failed`);
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  await cluster?.stop();
}
process.exit(exitCode);
