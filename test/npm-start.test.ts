// `npm start` as a person runs it, with no settings: the AI connection at
// http://localhost:PORT/mcp signs in the MCP SDK's own client; accounts keep their password when
// they join another organisation and get one only from `koers user password` (read from standard
// input); koers demo prints the address the service runs on; SIGTERM to the npm process alone
// stops Koers and its PostgreSQL, quietly; `koers data remove` then removes the cluster, also
// where (as root) it is kept in /var/lib/koers.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { browserSignIn, field, pkce, registerClient, authorizeUrl, TestClientProvider } from "./mcp-helpers.ts";
import { koersBin, runKoers, type Finished } from "./processes.ts";

const root = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "koers-npm-start-"));
const data = path.join(tmp, "data");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

let env: NodeJS.ProcessEnv;
let npm: ChildProcess;
let output = "";
let port: number;

/** A person's environment: nothing of Koers's set but where to keep data and which ports. */
async function personEnv(): Promise<NodeJS.ProcessEnv> {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(e)) if (k.startsWith("KOERS_") || k === "DATABASE_URL" || k.startsWith("npm_")) delete e[k];
  port = await freePort();
  return { ...e, KOERS_DATA_DIR: data, PORT: String(port), KOERS_PG_PORT: String(await freePort()) };
}

const cli = (args: string[]) => runKoers(args, env, { exactEnv: true });
async function cliJson(args: string[]): Promise<any> {
  const r = await cli([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** `koers user password --email E`, the password piped in on standard input. */
function setPassword(email: string, password: string): Promise<Finished> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [koersBin, "user", "password", "--email", email], { env });
    let stdout = "", stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    p.stdin.end(`${password}\n`);
  });
}

/** Whether the sign-in form takes this e-mail address and password (it then shows the consent page). */
async function signsIn(base: string, email: string, password: string): Promise<boolean> {
  const client = await registerClient(base);
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const page = await fetch(authorizeUrl(base, { client_id: client.body.client_id, code_challenge: pkce().challenge }));
  const html = await page.text();
  assert.equal(page.status, 200, html);
  const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
  const answer = await fetch(new URL("/oauth/aanmelden", base), { method: "POST", redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ aanvraag: field(html, "aanvraag")!, email, wachtwoord: password }) });
  const consent = await answer.text();
  assert.equal(answer.status, 200, consent);
  return field(consent, "toestemming") !== undefined;
}

/** Every process in the tree under `pid`, itself included. */
function tree(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const all = [pid];
  for (let i = 0; i < all.length; i++) for (const [p, pp] of rows) if (pp === all[i]) all.push(p);
  return all;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return false;
  }
}

before(async () => {
  fs.chmodSync(tmp, 0o700); // as mktemp -d makes it: the postgres user cannot enter it
  env = await personEnv();
  npm = spawn("npm", ["start"], { cwd: root, env });
  npm.stdout!.on("data", (d) => (output += d));
  npm.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 180_000;
  while (!output.includes("serving on")) {
    if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

after(async () => {
  if (npm.exitCode === null && npm.signalCode === null) for (const pid of tree(npm.pid!).reverse()) process.kill(pid, "SIGKILL");
  const link = path.join(data, "postgres");
  if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) {
    const cluster = fs.realpathSync(link);
    const pidFile = path.join(cluster, "postmaster.pid");
    if (fs.existsSync(pidFile)) process.kill(Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]), "SIGQUIT");
    fs.rmSync(path.dirname(cluster), { recursive: true, force: true });
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("npm start with no settings", () => {
  const email = "anna@localhost-bv.nl";
  const password = "correct paard batterij niet";

  it("announces its AI connection and the loopback spelling it also answers to; no test-only warning", () => {
    assert.match(output, new RegExp(`AI connection \\(MCP\\) at http://127\\.0\\.0\\.1:${port}/mcp, also as http://localhost:${port}/mcp`));
    assert.doesNotMatch(output, /test-only settings/);
  });

  it("koers user password sets a password from standard input; the MCP SDK's client signs in at http://localhost:PORT/mcp", async () => {
    const org = await cliJson(["org", "create", "--naam", "Localhost BV"]);
    await cliJson(["user", "create", "--org", org.org_id, "--naam", "Anna", "--email", email, "--rol", "eigenaar"]);
    await cliJson(["door", "set", "--org", "localhost bv", "--door", "mcp", "--aan"]);
    await cliJson(["section", "release", "--org", "Localhost BV", "team"]);
    const set = await setPassword(email, password);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /password set for Anna <anna@localhost-bv\.nl>/);
    assert.ok(!set.stdout.includes(password) && !set.stderr.includes(password), "the password is never printed");

    const mcpUrl = new URL(`http://localhost:${port}/mcp`);
    const provider = new TestClientProvider("Localhost-assistent");
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider as never });
    await assert.rejects(new Client({ name: "t", version: "1" }).connect(transport), UnauthorizedError);
    assert.equal(provider.authorizationUrl!.origin, `http://localhost:${port}`);
    assert.equal(provider.authorizationUrl!.searchParams.get("resource"), mcpUrl.href);
    const { redirect } = await browserSignIn(provider.authorizationUrl!, { email, password });
    assert.equal(redirect.searchParams.get("iss"), `http://localhost:${port}`);
    await transport.finishAuth(redirect.searchParams.get("code")!);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider as never }));
    const orgs = await client.callTool({ name: "organisaties", arguments: {} });
    assert.deepEqual((orgs.structuredContent as any).organisaties.map((o: any) => o.naam), ["Localhost BV"]);
    await client.close();
  });

  it("an existing account joins another organisation with its own password; only koers user password changes it", async () => {
    const base = `http://localhost:${port}`;
    await cliJson(["org", "create", "--naam", "Tweede BV"]);
    await cliJson(["door", "set", "--org", "Tweede BV", "--door", "mcp", "--aan"]);
    // Adding her elsewhere, with a password of the adder's choosing, is refused and changes nothing.
    const hijack = await cli(["user", "create", "--org", "Tweede BV", "--naam", "Anna", "--email", "ANNA@localhost-bv.nl",
      "--rol", "lid", "--wachtwoord", "van de beheerder"]);
    assert.equal(hijack.code, 1, hijack.stderr);
    assert.match(hijack.stderr, /heeft al een account; het wachtwoord verandert hier niet.*koers user password --email/);
    const joined = await cliJson(["user", "create", "--org", "Tweede BV", "--naam", "A. de Vries", "--email", email, "--rol", "lid"]);
    assert.equal(joined.naam, "Anna", "the account is hers, as it was");
    assert.equal(await signsIn(base, email, password), true, "her own password still works");
    assert.equal(await signsIn(base, email, "van de beheerder"), false);

    const changed = await setPassword(email, "een nieuw wachtwoord");
    assert.equal(changed.code, 0, changed.stderr);
    assert.equal(await signsIn(base, email, "een nieuw wachtwoord"), true);
    assert.equal(await signsIn(base, email, password), false);
    // Never an argument, never empty or short; an unknown address is named.
    assert.equal((await cli(["user", "password", "--email", email, "--wachtwoord", "x"])).code, 2);
    const none = await setPassword(email, "");
    assert.deepEqual([none.code, /no password on standard input/.test(none.stderr)], [2, true]);
    assert.match((await setPassword(email, "kort")).stderr, /at least 8 characters/);
    const unknown = await setPassword("niemand@localhost-bv.nl", "lang genoeg wachtwoord");
    assert.deepEqual([unknown.code, /geen account met e-mailadres niemand@localhost-bv\.nl/.test(unknown.stderr)], [1, true]);
  });

  it("organisation names are unique ignoring case; koers org rename changes one", async () => {
    const twice = await cli(["org", "create", "--naam", "localhost bv"]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /Er is al een organisatie Localhost BV \(org_id [0-9a-f-]{36}\)\. .*koers org rename --org/);
    const renamed = await cliJson(["org", "rename", "--org", "TWEEDE bv", "--naam", "Derde BV"]);
    assert.equal(renamed.naam, "Derde BV");
    assert.equal((await cli(["org", "rename", "--org", "Derde BV", "--naam", "LOCALHOST BV"])).code, 1);
    assert.deepEqual((await cliJson(["org", "list"])).map((o: { naam: string }) => o.naam), ["Derde BV", "Localhost BV"]);
  });

  it("koers demo prints URLs at the address the service runs on", async () => {
    const demo = await cliJson(["demo"]);
    assert.equal(demo.base_url, `http://127.0.0.1:${port}`);
    assert.ok(demo.curl.every((c: string) => c.includes(`"http://127.0.0.1:${port}/api/v1/`)), demo.curl.join("\n"));
    const team = await fetch(`http://127.0.0.1:${port}/api/v1/team?org_id=${demo.org_id}`, { headers: { authorization: `Bearer ${demo.sleutel}` } });
    assert.equal(team.status, 200);
  });

  it("SIGTERM to the npm process alone stops Koers and its PostgreSQL, without a line about lost connections", async () => {
    const postmaster = Number(fs.readFileSync(path.join(data, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    const started = tree(npm.pid!);
    assert.ok(started.length >= 2, "npm and the Koers process");
    assert.ok(started.includes(postmaster), "PostgreSQL runs under the Koers process");
    const exited = new Promise((r) => npm.once("exit", r));
    process.kill(npm.pid!, "SIGTERM");
    await exited;
    const deadline = Date.now() + 30_000;
    while (started.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(started.filter(alive), [], `left running:\n${output}`);
    assert.equal(fs.existsSync(path.join(data, "postgres", "postmaster.pid")), false);
    assert.match(output, /koers: SIGTERM: shutting down\nkoers: stopped/);
    assert.doesNotMatch(output, /connection lost|terminating connection/);
  });

  it("koers data remove lists the cluster, then removes it (also from /var/lib/koers)", async () => {
    const cluster = fs.realpathSync(path.join(data, "postgres"));
    const where = process.getuid?.() === 0 ? path.dirname(cluster) : path.join(data, "postgres");
    const dry = await cliJson(["data", "remove"]);
    assert.ok(dry.zou_verwijderen.includes(where), JSON.stringify(dry));
    assert.ok(fs.existsSync(cluster), "nothing removed without --ja");
    const done = await cliJson(["data", "remove", "--ja"]);
    assert.ok(done.verwijderd.includes(where) && done.verwijderd.includes(path.join(data, "koers.json")), JSON.stringify(done));
    assert.equal(fs.existsSync(cluster), false);
    assert.equal(fs.existsSync(data), false, "the data folder held only Koers's files");
  });
});
