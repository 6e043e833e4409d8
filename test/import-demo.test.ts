// `koers demo` on a fresh `npm start`: the service runs on an empty data folder with its
// embedded PostgreSQL, the CLI next to it loads the demo into the same database, and the key
// and URL it prints answer.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./cluster.ts";
import { runKoers, startService } from "./processes.ts";

const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-demo-"));
fs.chmodSync(tmpDir, 0o755);
after(() => fs.rmSync(tmpDir, { recursive: true, force: true }));

const start = startService;

const cli = (env: NodeJS.ProcessEnv, args: string[]) => runKoers(args, env, { exactEnv: true });

describe("koers demo next to npm start", () => {
  it("loads the demo into the running service's fresh database; the printed key and URL answer", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, KOERS_DATA_DIR: path.join(tmpDir, "data"),
      PORT: String(await freePort()), KOERS_PG_PORT: String(await freePort()) };
    delete env.DATABASE_URL;
    delete env.KOERS_NOW;
    const service = await start(env);
    try {
      const r = await cli(env, ["demo", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /starting PostgreSQL/, "the CLI uses the service's database");
      const demo = JSON.parse(r.stdout);
      assert.equal(demo.base_url, `http://127.0.0.1:${env.PORT}`);
      const line: string = demo.curl.find((c: string) => c.includes("/api/v1/prioriteiten?"));
      const [, header, url] = /^curl -H "(Authorization: Bearer koers_live_\w+)" "(.+)"$/.exec(line)!;
      const answer = await fetch(url!, { headers: { authorization: header!.slice("Authorization: ".length) } });
      assert.equal(answer.status, 200);
      const body = await answer.json() as { prioriteiten: { titel: string }[] };
      assert.ok(body.prioriteiten.length >= 8, JSON.stringify(body).slice(0, 300));
      // Every line the demo prints works as printed.
      for (const c of demo.curl as string[]) {
        const [, h, u] = /^curl -H "(Authorization: Bearer koers_live_\w+)" "(.+)"$/.exec(c)!;
        const a = await fetch(u!, { headers: { authorization: h!.slice("Authorization: ".length) } });
        assert.equal(a.status, 200, `${u}: ${await a.text()}`);
      }
      assert.ok((demo.curl as string[]).some((c) => c.includes("/api/v1/zoeken?")), "search is among them");
    } finally {
      const exited = new Promise<number | null>((r) => service.proc.once("exit", (c) => r(c)));
      service.proc.kill("SIGINT");
      assert.equal(await exited, 0, service.output());
    }
  });
});
