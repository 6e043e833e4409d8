// The README's first command with no configuration: an embedded PostgreSQL in the data folder,
// migrated and served; the CLI next to it; a restart keeps the data; Ctrl-C stops cleanly. The
// data folder lies in a folder made by mktemp -d, which (as root) the postgres user cannot enter.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { runKoers, startService } from "./processes.ts";

const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-embedded-"));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

const env = async () => {
  const e: NodeJS.ProcessEnv = { ...process.env, KOERS_DATA_DIR: path.join(tmpDir, "data"),
    PORT: String(await freePort()), KOERS_PG_PORT: String(await freePort()) };
  delete e.DATABASE_URL;
  delete e.KOERS_NOW;
  return e;
};

const start = startService;

async function cli(e: NodeJS.ProcessEnv, args: string[]): Promise<any> {
  const r = await runKoers([...args, "--json"], e, { exactEnv: true });
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

async function stopGracefully(proc: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((r) => proc.once("exit", (c) => r(c)));
  proc.kill("SIGINT");
  return exited;
}

after(() => {
  // As root the cluster lives outside the data folder (src/db/embedded.ts), linked from it.
  const link = path.join(tmpDir, "data", "postgres");
  if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) {
    fs.rmSync(path.dirname(fs.readlinkSync(link)), { recursive: true, force: true });
  }
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe("npm start without configuration", () => {
  it("serves the index and wie-ben-ik from an embedded PostgreSQL, and keeps data across a restart", async () => {
    const e = await env();
    const baseUrl = `http://127.0.0.1:${e.PORT}`;
    const first = await start(e);
    let apiKey: string;
    try {
      assert.match(first.output(), /initialising PostgreSQL in/);
      const index = await fetch(`${baseUrl}/api/v1`);
      assert.equal(index.status, 200);
      assert.ok((await index.json()).endpoints.length > 0);

      const org = await cli(e, ["org", "create", "--naam", "Ingebed BV"]);
      await cli(e, ["user", "create", "--org", org.org_id, "--naam", "Eva", "--email", "eva@ingebed.nl", "--rol", "eigenaar"]);
      apiKey = (await cli(e, ["key", "create", "--org", org.org_id, "--user", "eva@ingebed.nl"])).sleutel;
      await cli(e, ["door", "set", "--org", org.org_id, "--door", "rest", "--aan"]);
      const r = await fetch(`${baseUrl}/api/v1/wie-ben-ik`, { headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(r.status, 200);
      assert.equal((await r.json()).organisatie.naam, "Ingebed BV");
    } finally {
      assert.equal(await stopGracefully(first.proc), 0, first.output());
    }
    assert.match(first.output(), /stopped/);

    // With the service down, the CLI starts the embedded server itself.
    const log = await cli(e, ["log", "--org", "Ingebed BV"]);
    assert.equal(log[0].operatie, "wie_ben_ik");

    const second = await start(e);
    try {
      assert.doesNotMatch(second.output(), /initialising/);
      const r = await fetch(`${baseUrl}/api/v1/wie-ben-ik`, { headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(r.status, 200);
      assert.equal((await r.json()).gebruiker.naam, "Eva");
    } finally {
      assert.equal(await stopGracefully(second.proc), 0, second.output());
    }
  });
});
