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
