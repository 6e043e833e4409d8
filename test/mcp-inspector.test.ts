// The MCP Inspector's command-line mode (2.12, on the Node 22 of the `node` npm package) against
// a running Koers process: it lists the tools and calls a read and a two-step write, with an
// access token from the sign-in.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeWorld, testDatabase, type TestDb, type World } from "./helpers.ts";
import { aiDoorOn, email, signInByHand } from "./mcp-helpers.ts";
import { freePort } from "./cluster.ts";
import { mcpOperations } from "../src/registry.ts";

const root = path.resolve(import.meta.dirname, "..");
const node22 = path.join(root, "node_modules/node/bin/node");
const inspector = path.join(root, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

let db: TestDb;
let server: ChildProcess;
let baseUrl: string;
let w: World;
let token: string;
let home: string;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The Inspector CLI, in a home of its own (it keeps a catalog and secrets there), JSON out. */
async function inspect(args: string[]) {
  const r = await run(node22, [inspector, "--cli", `${baseUrl}/mcp`, "--transport", "http",
    "--header", `Authorization: Bearer ${token}`, "--format", "json", "--stored-auth-only", ...args],
  { PATH: process.env.PATH, HOME: home, MCP_CATALOG_PATH: path.join(home, "mcp.json") });
  assert.equal(r.code, 0, `inspector ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout).result;
}

before(async () => {
  assert.ok(fs.existsSync(node22), "the node@22 devDependency provides Node 22");
  db = await testDatabase();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "koers-inspector-"));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(root, "bin/koers.mjs"), "serve"], {
    env: { ...process.env, DATABASE_URL: db.url, HOST: "127.0.0.1", PORT: String(port), KOERS_WORKER: "uit" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (d) => { out += d; if (out.includes("serving on")) resolve(); });
    server.stderr!.on("data", (d) => (out += d));
    server.on("exit", (code) => reject(new Error(`koers serve exited with ${code}: ${out}`)));
  });
  w = await makeWorld(db.sql);
  await aiDoorOn(db.sql, w);
  token = (await signInByHand(baseUrl, await email(db.sql, w.members.eigenaar))).access_token;
});
after(async () => {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  fs.rmSync(home, { recursive: true, force: true });
  await db.drop();
});

describe("MCP Inspector CLI", () => {
  it("runs on Node 22.19 or newer", async () => {
    const r = await run(node22, ["--version"], { PATH: process.env.PATH });
    const [major, minor] = r.stdout.trim().slice(1).split(".").map(Number) as [number, number];
    assert.ok(major > 22 || (major === 22 && minor >= 19), r.stdout);
  });

  it("lists the tools", async () => {
    const r = await inspect(["--method", "tools/list"]);
    const names = r.tools.map((t: { name: string }) => t.name).sort();
    assert.deepEqual(names, mcpOperations.map((o) => o.name).sort());
  });

  it("calls a read", async () => {
    const r = await inspect(["--method", "tools/call", "--tool-name", "team", "--tool-args-json", JSON.stringify({ org_id: w.org })]);
    assert.equal(r.isError ?? false, false, JSON.stringify(r));
    assert.ok(r.structuredContent.leden.some((l: { naam: string }) => l.naam === "Eigenaar Acme BV"));
  });

  it("calls a two-step write: a proposal, then the write with its code", async () => {
    const input = { org_id: w.org, titel: "Inspectieproject", eigenaar_user_id: w.members.eigenaar.user_id };
    const first = await inspect(["--method", "tools/call", "--tool-name", "project_aanmaken", "--tool-args-json", JSON.stringify(input)]);
    const proposal = first.structuredContent;
    assert.ok(proposal.voorstel, JSON.stringify(first));
    assert.equal((await db.sql`select count(*)::int as n from app.projecten where titel = 'Inspectieproject'`)[0]!.n, 0);
    const second = await inspect(["--method", "tools/call", "--tool-name", "project_aanmaken", "--tool-args-json",
      JSON.stringify({ ...input, bevestigcode: proposal.bevestigcode })]);
    assert.equal(second.structuredContent.uitgevoerd, true, JSON.stringify(second));
    assert.equal((await db.sql`select count(*)::int as n from app.projecten where titel = 'Inspectieproject'`)[0]!.n, 1);
    const log = await db.sql`select operatie, status from app_private.aanroepen where org_id = ${w.org} and door = 'mcp'
      and operatie = 'project_aanmaken' order by tijdstip`;
    assert.deepEqual(log.map((l) => l.status), [200, 200]);
  });
});
