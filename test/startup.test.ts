// Starting and stopping Koers as real processes: a server left behind by a killed start is
// taken over and stopped; SIGTERM and SIGHUP shut down cleanly; a bad setting ends the start
// with one line naming it; as root the embedded server runs from a folder the postgres user
// cannot enter; two Koers databases on one server keep their own door role.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { makeWorld, request, testDatabase, type TestDb } from "./helpers.ts";
import { doorUrl } from "../src/db/connection.ts";

const root = path.resolve(import.meta.dirname, "..");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** The environment of a user who configured nothing but what a test gives. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["DATABASE_URL", "KOERS_DOOR_DATABASE_URL", "KOERS_DATA_DIR", "KOERS_NOW", "PORT", "KOERS_PG_PORT"]) delete e[k];
  return { ...e, KOERS_WORKER: "uit", ...extra };
}

interface Proc {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const launched: ChildProcess[] = [];

/** `node --import tsx <script>`, as `npm start` and `koers worker` run. */
function launch(args: string[], env: NodeJS.ProcessEnv, cwd = root): Proc {
  const proc = spawn(process.execPath, ["--import", "tsx", ...args], { cwd, env });
  launched.push(proc);
  let stdout = "", stderr = "", output = "";
  proc.stdout!.on("data", (d) => { stdout += d; output += d; });
  proc.stderr!.on("data", (d) => { stderr += d; output += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    proc.on("exit", (code, signal) => r({ code, signal })));
  return { proc, stdout: () => stdout, stderr: () => stderr, output: () => output, exited };
}

async function untilReady(p: Proc, ready = /serving on/): Promise<void> {
  const deadline = Date.now() + 120_000;
  let exited = false;
  void p.exited.then(() => (exited = true));
  while (!ready.test(p.output())) {
    if (exited) throw new Error(`exited before it was ready:\n${p.output()}`);
    if (Date.now() > deadline) throw new Error(`not ready within 120 s:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function signalAndWait(p: Proc, signal: NodeJS.Signals) {
  p.proc.kill(signal);
  return p.exited;
}

/** Live processes (postmaster and backends) working in a cluster folder. */
function serverProcesses(cluster: string): number[] {
  const real = fs.realpathSync(cluster);
  return fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return fs.readlinkSync(`/proc/${pid}/cwd`) === real && stat[stat.lastIndexOf(")") + 2] !== "Z";
    } catch {
      return false;
    }
  }).map(Number);
}

async function assertNoServer(cluster: string) {
  const deadline = Date.now() + 10_000;
  while (serverProcesses(cluster).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(serverProcesses(cluster), [], `PostgreSQL processes left running in ${cluster}`);
  assert.equal(fs.existsSync(path.join(cluster, "postmaster.pid")), false, "postmaster.pid left behind");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One line on stderr, naming the setting, without a stack trace; exit code 1. */
function assertOneLineError(r: { code: number | null }, p: Proc, setting: RegExp) {
  assert.equal(r.code, 1, p.output());
  const lines = p.stderr().trim().split("\n");
  assert.equal(lines.length, 1, `expected one line on stderr:\n${p.stderr()}`);
  assert.match(lines[0]!, /^koers( worker)?: could not start: /);
  assert.match(lines[0]!, setting);
  assert.doesNotMatch(p.output(), /^\s+at /m, "no stack trace");
}

const cleanUps: (() => Promise<void> | void)[] = [];
after(async () => {
  // After a failed assertion, nothing started here may stay running.
  for (const p of launched) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  for (const c of cleanUps.reverse()) await c();
});

describe("npm start with the embedded PostgreSQL", () => {
  it("runs from a project folder the postgres user cannot enter, takes over the server a killed start left behind, and stops it on SIGTERM and SIGHUP", async () => {
    // A clone in a folder only its owner may enter (mktemp -d), as `npm start` in /root would
    // be; node_modules as hard links, so the binaries lie in that folder too.
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "koers-private-"));
    assert.equal(fs.statSync(base).mode & 0o777, 0o700);
    const project = path.join(base, "koers");
    fs.mkdirSync(project);
    for (const f of ["src", "db", "migrations", "bin", "package.json", "tsconfig.json"]) {
      fs.cpSync(path.join(root, f), path.join(project, f), { recursive: true });
    }
    execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(project, "node_modules")]);
    const data = path.join(project, "data");
    cleanUps.push(() => {
      // As root the cluster and the binaries' copy live outside the project, linked from it.
      const cluster = fs.existsSync(path.join(data, "postgres")) ? fs.realpathSync(path.join(data, "postgres")) : null;
      if (cluster) for (const pid of serverProcesses(cluster)) process.kill(pid, "SIGQUIT");
      if (cluster && !cluster.startsWith(base)) fs.rmSync(path.dirname(cluster), { recursive: true, force: true });
      fs.rmSync(base, { recursive: true, force: true });
    });
    const env = cleanEnv({ PORT: String(await freePort()), KOERS_PG_PORT: String(await freePort()), KOERS_WORKER: "aan" });
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    const cluster = path.join(data, "postgres");

    const first = launch(["src/main.ts"], env, project);
    await untilReady(first);
    assert.match(first.output(), /initialising PostgreSQL/);
    if (process.getuid?.() === 0) {
      assert.match(first.output(), /the postgres user cannot enter .*; keeping PostgreSQL's files in \/var\/lib\/koers\//);
      assert.match(first.output(), /copying PostgreSQL's binaries/);
    }
    assert.equal((await fetch(`${baseUrl}/api/v1`)).status, 200);

    // Killed without a chance to clean up: its PostgreSQL keeps running.
    const postmaster = Number(fs.readFileSync(path.join(cluster, "postmaster.pid"), "utf8").split("\n")[0]);
    assert.deepEqual(await signalAndWait(first, "SIGKILL"), { code: null, signal: "SIGKILL" });
    assert.ok(isAlive(postmaster), "the killed start's PostgreSQL is still running");

    const second = launch(["src/main.ts"], env, project);
    await untilReady(second);
    assert.match(second.output(), new RegExp(`taking over the PostgreSQL \\(pid ${postmaster}\\)`));
    assert.doesNotMatch(second.output(), /initialising/);
    assert.equal((await fetch(`${baseUrl}/api/v1`)).status, 200);
    // The CLI uses the running service's server and leaves it running.
    const cli = spawn(process.execPath, ["bin/koers.mjs", "org", "create", "--naam", "Privé BV", "--json"], { cwd: project, env });
    let cliOut = "";
    cli.stdout.on("data", (d) => (cliOut += d));
    cli.stderr.on("data", (d) => (cliOut += d));
    assert.equal(await new Promise((r) => cli.on("close", r)), 0, cliOut);
    assert.equal(JSON.parse(cliOut).naam, "Privé BV");
    assert.ok(isAlive(postmaster));
    assert.equal((await fetch(`${baseUrl}/api/v1`)).status, 200);

    assert.deepEqual(await signalAndWait(second, "SIGTERM"), { code: 0, signal: null }, second.output());
    assert.match(second.output(), /SIGTERM: shutting down[\s\S]*stopped/);
    await assertNoServer(cluster);
    assert.equal(fs.existsSync(path.join(data, "postgres.owner")), false);

    const third = launch(["src/main.ts"], env, project);
    await untilReady(third);
    assert.doesNotMatch(third.output(), /taking over|initialising/);
    assert.equal((await fetch(`${baseUrl}/api/v1`)).status, 200);
    assert.deepEqual(await signalAndWait(third, "SIGHUP"), { code: 0, signal: null }, third.output());
    assert.match(third.output(), /SIGHUP: shutting down[\s\S]*stopped/);
    await assertNoServer(cluster);
  });

  it("names KOERS_DATA_DIR when the data folder cannot be written", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "koers-unwritable-"));
    cleanUps.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const file = path.join(base, "a-file");
    fs.writeFileSync(file, "");
    for (const dataDir of [file, path.join(file, "data")]) {
      const p = launch(["src/main.ts"], cleanEnv({ KOERS_DATA_DIR: dataDir, PORT: String(await freePort()) }));
      assertOneLineError(await p.exited, p, /KOERS_DATA_DIR/);
      assert.ok(p.stderr().includes(dataDir), p.stderr());
    }
  });
});

describe("npm start and koers worker with DATABASE_URL", () => {
  let db: TestDb;
  const url = (change: (u: URL) => void) => { const u = new URL(db.url); change(u); return u.toString(); };

  it("refuses a taken HTTP port with one line naming PORT", async () => {
    db = await testDatabase();
    cleanUps.push(() => db.drop());
    const taken = net.createServer().listen(0, "127.0.0.1");
    await new Promise((r) => taken.once("listening", r));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const p = launch(["src/main.ts"], cleanEnv({ DATABASE_URL: db.url, PORT: String(port) }));
      assertOneLineError(await p.exited, p, new RegExp(`port ${port} .*in use; set PORT`));
    } finally {
      taken.close();
    }
  });

  it("names DATABASE_URL, without its password, when the server is not there or refuses", async () => {
    const closed = await freePort();
    const password = new URL(db.url).password;
    assert.ok(password.length > 8);
    const cases: [string, RegExp][] = [
      [url((u) => { u.port = String(closed); }), /connection refused/],
      [url((u) => { u.password = "wrong-" + password; }), /refused the user name or password/],
      [url((u) => { u.pathname = "/koers_does_not_exist"; }), /database does not exist/],
    ];
    for (const [databaseUrl, why] of cases) {
      for (const script of [["src/main.ts"], ["src/cli.ts", "worker"]]) {
        const p = launch(script, cleanEnv({ DATABASE_URL: databaseUrl, PORT: String(await freePort()) }));
        assertOneLineError(await p.exited, p, /DATABASE_URL \(postgres:\/\/[^:@]+@127\.0\.0\.1:\d+\/\w+\)/);
        assert.match(p.stderr(), why);
        assert.ok(!p.output().includes(password), "the password is not printed");
      }
    }
  });

  it("koers worker and npm start exit 0 on SIGTERM and SIGHUP", async () => {
    for (const signal of ["SIGTERM", "SIGHUP"] as const) {
      const worker = launch(["src/cli.ts", "worker"], cleanEnv({ DATABASE_URL: db.url }));
      await untilReady(worker, /koers worker: running/);
      assert.deepEqual(await signalAndWait(worker, signal), { code: 0, signal: null }, worker.output());
      assert.match(worker.output(), new RegExp(`${signal}: shutting down[\\s\\S]*stopped`));

      const service = launch(["src/main.ts"], cleanEnv({ DATABASE_URL: db.url, PORT: String(await freePort()), KOERS_WORKER: "aan" }));
      await untilReady(service);
      assert.deepEqual(await signalAndWait(service, signal), { code: 0, signal: null }, service.output());
      assert.match(service.output(), new RegExp(`${signal}: shutting down[\\s\\S]*stopped`));
    }
  });
});

describe("two Koers databases on one PostgreSQL server", () => {
  it("each keeps its door role: starting one does not lock the other's door out", async () => {
    const server = process.env.KOERS_TEST_SERVER_URL!;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    const suffix = crypto.randomBytes(4).toString("hex");
    const sites = await Promise.all(["a", "b"].map(async (name) => {
      const user = `koers_admin_${name}_${suffix}`;
      const password = crypto.randomBytes(12).toString("base64url");
      await admin.unsafe(`create role ${user} login superuser password '${password}'`);
      const db = await testDatabase();
      const u = new URL(db.url);
      u.username = user;
      u.password = password;
      return { db, user, adminUrl: u.toString(), port: await freePort(), apiKey: "", proc: null as Proc | null };
    }));
    cleanUps.push(async () => {
      for (const s of sites) {
        if (s.proc?.proc.exitCode === null) await signalAndWait(s.proc, "SIGTERM");
        await s.db.drop();
        await admin.unsafe(`drop role if exists ${s.user}`);
      }
      await admin.end();
    });
    for (const s of sites) s.apiKey = (await makeWorld(s.db.sql, `Site ${s.user}`)).members.eigenaar.apiKey;

    const start = async (s: (typeof sites)[number]) => {
      if (s.proc) assert.equal((await signalAndWait(s.proc, "SIGTERM")).code, 0);
      s.proc = launch(["src/main.ts"], cleanEnv({ DATABASE_URL: s.adminUrl, PORT: String(s.port) }));
      await untilReady(s.proc);
    };
    /** Door calls on fresh connections: more at once than the door's pool had open. */
    const answers = async (s: (typeof sites)[number]) => {
      const rs = await Promise.all(Array.from({ length: 12 }, () =>
        request(`http://127.0.0.1:${s.port}`, "GET", "/api/v1/wie-ben-ik", { apiKey: s.apiKey })));
      assert.deepEqual(rs.map((r) => r.status), Array(12).fill(200), JSON.stringify(rs.find((r) => r.status !== 200)?.body));
      const door = postgres(await doorUrl(s.adminUrl), { max: 1, onnotice: () => {} });
      try {
        assert.equal((await door`select current_user as u`)[0]!.u.startsWith("koers_door"), true);
      } finally {
        await door.end();
      }
    };

    const [a, b] = sites as [typeof sites[0], typeof sites[0]];
    await start(a);
    await answers(a);
    await start(b);
    await answers(b);
    await answers(a);
    await start(a); // again, after b
    await answers(b);
    await answers(a);
    for (const s of sites) assert.deepEqual(await signalAndWait(s.proc!, "SIGTERM"), { code: 0, signal: null });
  });
});
