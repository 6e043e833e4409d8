// docker-compose.yml and the Dockerfile, read as Docker reads them (there is no Docker engine
// here: Debian's docker-compose parses and validates the file with `docker-compose config`):
// an image built once with npm ci, a supported Node LTS, the service as the container's process
// behind an init, its port on 127.0.0.1 only, KOERS_PUBLIC_URL set, PostgreSQL with a volume and
// a health check that Koers waits for.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { serviceNodeArgs } from "./processes.ts";

const root = path.resolve(import.meta.dirname, "..");

/** The compose file as docker-compose resolves it, with these variables set (and no others of ours). */
function composeConfig(vars: Record<string, string> = {}): any {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...vars };
  const yaml = execFileSync("docker-compose", ["-f", "docker-compose.yml", "config"], { cwd: root, env, encoding: "utf8" });
  return JSON.parse(execFileSync("/usr/bin/python3", ["-c", "import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)"],
    { input: yaml, encoding: "utf8" }));
}

describe("docker-compose.yml", () => {
  it("builds Koers's image once and runs it behind an init, on 127.0.0.1, with KOERS_PUBLIC_URL, after a healthy PostgreSQL", () => {
    const c = composeConfig();
    const koers = c.services.koers;
    assert.equal(koers.build.context, root);
    assert.equal(koers.init, true);
    assert.equal(koers.command, undefined, "nothing installed at start: the image's own command");
    assert.equal(koers.volumes, undefined, "the image's code, not the working tree");
    assert.deepEqual(koers.ports, ["127.0.0.1:3000:3000/tcp"]);
    assert.equal(new URL(koers.environment.KOERS_PUBLIC_URL).origin, koers.environment.KOERS_PUBLIC_URL);
    assert.equal(new URL(koers.environment.DATABASE_URL).hostname, "postgres");
    assert.equal(koers.environment.HOST, "0.0.0.0");
    assert.deepEqual(koers.depends_on, { postgres: { condition: "service_healthy" } });
    const pg = c.services.postgres;
    assert.ok(pg.volumes.some((v: string) => /^pgdata:\/var\/lib\/postgresql\/data/.test(v)), "a named volume for the data");
    assert.ok(c.volumes.pgdata !== undefined);
    assert.match(pg.healthcheck.test.join(" "), /pg_isready/);
    assert.equal(pg.ports, undefined, "PostgreSQL is not published");
  });

  it("takes the port and the public address from the environment", () => {
    const c = composeConfig({ KOERS_PORT: "8080", KOERS_PUBLIC_URL: "https://koers.example.com", KOERS_DB_PASSWORD: "s3cret" });
    assert.deepEqual(c.services.koers.ports, ["127.0.0.1:8080:3000/tcp"]);
    assert.equal(c.services.koers.environment.KOERS_PUBLIC_URL, "https://koers.example.com");
    assert.equal(new URL(c.services.koers.environment.DATABASE_URL).password, "s3cret");
    assert.equal(c.services.postgres.environment.POSTGRES_PASSWORD, "s3cret");
  });
});

describe("Dockerfile", () => {
  const lines = fs.readFileSync(path.join(root, "Dockerfile"), "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#"));
  const instructions = lines.map((l) => { const [op, ...rest] = l.trim().split(/\s+/); return { op: op!, arg: rest.join(" ") }; });

  it("starts from a supported Node LTS and installs dependencies at build, with npm ci", () => {
    const from = instructions.filter((i) => i.op === "FROM");
    assert.equal(from.length, 1);
    const major = Number(/^node:(\d+)-/.exec(from[0]!.arg)?.[1]);
    // Even majors are LTS; 20 reached its end of life in April 2026.
    assert.ok(major >= 22 && major % 2 === 0, from[0]!.arg);
    assert.ok(instructions.some((i) => i.op === "RUN" && /\bnpm ci\b/.test(i.arg)));
    assert.equal(instructions.filter((i) => i.op === "CMD" || i.op === "ENTRYPOINT").length, 1);
  });

  it("runs the service itself, with npm start's flags, in exec form (no shell to swallow SIGTERM), not as root", () => {
    const cmd = instructions.find((i) => i.op === "CMD")!;
    assert.deepEqual(JSON.parse(cmd.arg), ["node", ...serviceNodeArgs]);
    assert.ok(instructions.some((i) => i.op === "USER" && i.arg !== "root"));
  });

  it("copies what exists, and the build context leaves out data and node_modules", () => {
    for (const i of instructions.filter((x) => x.op === "COPY")) {
      for (const source of i.arg.split(/\s+/).slice(0, -1)) assert.ok(fs.existsSync(path.join(root, source)), source);
    }
    const ignored = fs.readFileSync(path.join(root, ".dockerignore"), "utf8").split("\n").map((l) => l.trim());
    for (const p of ["node_modules", "data", ".git"]) assert.ok(ignored.includes(p), p);
  });
});
