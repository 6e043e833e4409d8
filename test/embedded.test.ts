// The README's first command with no configuration: an embedded PostgreSQL in the data folder,
// migrated and served; the CLI next to it; a restart keeps the data; Ctrl-C stops cleanly.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const wortel = path.resolve(import.meta.dirname, "..");
const map = fs.mkdtempSync(path.join(os.tmpdir(), "koers-ingebed-"));
fs.chmodSync(map, 0o755);

async function vrijePoort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

const env = async () => {
  const e: NodeJS.ProcessEnv = { ...process.env, KOERS_DATA_DIR: path.join(map, "data"),
    PORT: String(await vrijePoort()), KOERS_PG_PORT: String(await vrijePoort()) };
  delete e.DATABASE_URL;
  delete e.KOERS_NOW;
  return e;
};

function start(e: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; uit: () => string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], { cwd: wortel, env: e });
    let uit = "";
    const timer = setTimeout(() => reject(new Error(`no "serving on" within 120 s:\n${uit}`)), 120_000);
    const lees = (d: Buffer) => {
      uit += d;
      if (uit.includes("serving on")) {
        clearTimeout(timer);
        resolve({ proc, uit: () => uit });
      }
    };
    proc.stdout.on("data", lees);
    proc.stderr.on("data", lees);
    proc.on("exit", (c) => reject(new Error(`exited with ${c}:\n${uit}`)));
  });
}

function cli(e: NodeJS.ProcessEnv, args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(wortel, "bin/koers.mjs"), ...args, "--json"], { env: e });
    let uit = "", fout = "";
    p.stdout.on("data", (d) => (uit += d));
    p.stderr.on("data", (d) => (fout += d));
    p.on("close", (c) => (c === 0 ? resolve(JSON.parse(uit)) : reject(new Error(fout))));
  });
}

async function stopNetjes(proc: ChildProcess): Promise<number | null> {
  const klaar = new Promise<number | null>((r) => proc.once("exit", (c) => r(c)));
  proc.kill("SIGINT");
  return klaar;
}

after(() => fs.rmSync(map, { recursive: true, force: true }));

describe("npm start without configuration", () => {
  it("serves the index and wie-ben-ik from an embedded PostgreSQL, and keeps data across a restart", async () => {
    const e = await env();
    const basis = `http://127.0.0.1:${e.PORT}`;
    const eerste = await start(e);
    let sleutel: string;
    try {
      assert.match(eerste.uit(), /initialising PostgreSQL in/);
      const index = await fetch(`${basis}/api/v1`);
      assert.equal(index.status, 200);
      assert.ok((await index.json()).endpoints.length > 0);

      const org = await cli(e, ["org", "create", "--naam", "Ingebed BV"]);
      await cli(e, ["user", "create", "--org", org.org_id, "--naam", "Eva", "--email", "eva@ingebed.nl", "--rol", "eigenaar"]);
      sleutel = (await cli(e, ["key", "create", "--org", org.org_id, "--user", "eva@ingebed.nl"])).sleutel;
      await cli(e, ["door", "set", "--org", org.org_id, "--door", "rest", "--aan"]);
      const r = await fetch(`${basis}/api/v1/wie-ben-ik`, { headers: { authorization: `Bearer ${sleutel}` } });
      assert.equal(r.status, 200);
      assert.equal((await r.json()).organisatie.naam, "Ingebed BV");
    } finally {
      assert.equal(await stopNetjes(eerste.proc), 0, eerste.uit());
    }
    assert.match(eerste.uit(), /stopped/);

    // With the service down, the CLI starts the embedded server itself.
    const log = await cli(e, ["log", "--org", "Ingebed BV"]);
    assert.equal(log[0].operatie, "wie_ben_ik");

    const tweede = await start(e);
    try {
      assert.doesNotMatch(tweede.uit(), /initialising/);
      const r = await fetch(`${basis}/api/v1/wie-ben-ik`, { headers: { authorization: `Bearer ${sleutel}` } });
      assert.equal(r.status, 200);
      assert.equal((await r.json()).gebruiker.naam, "Eva");
    } finally {
      assert.equal(await stopNetjes(tweede.proc), 0, tweede.uit());
    }
  });
});
