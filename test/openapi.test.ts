// The OpenAPI document as Koers serves it: valid OpenAPI 3.1 by a well-kept validator, with
// every operation and its answers, and good enough to generate a typed client
// (openapi-typescript) that type-checks and reads real answers from a running Koers.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { validate } from "@readme/openapi-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { operations, restPath, httpMethod } from "../src/registry.ts";
import { refusalsByStatus } from "../src/schemas.ts";
import { request, setupWorld, writeTwoStep } from "./helpers.ts";

const root = path.resolve(import.meta.dirname, "..");
let task: { nummer: number; omschrijving: string };
const o = setupWorld({
  now: "2026-05-13T10:00:00+02:00",
  afterSetup: async (o) => {
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", o.w.members.eigenaar.apiKey,
      { org_id: o.w.org, omschrijving: "Getypte taak", tags: ["Web"] });
    task = confirmed.body.taak;
  },
});

const served = async () => (await request(o.baseUrl, "GET", "/api/v1/openapi.json")).body;

function run(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => resolve({ code: code ?? 1, out, err }));
  });
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (@readme/openapi-parser)", async () => {
    const doc = await served();
    assert.equal(doc.openapi, "3.1.0");
    const result = await validate(structuredClone(doc));
    assert.ok(result.valid, JSON.stringify(result));
  });

  it("the validator does refuse a broken document", async () => {
    const doc = await served();
    doc.paths["/api/v1/team"].get.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Bestaat_niet" };
    assert.equal((await validate(doc)).valid, false);
  });

  it("has every operation, with its success and each refusal status", async () => {
    const doc = await served();
    for (const op of operations.filter((x) => !x.onlyMcp)) {
      const entry = doc.paths[restPath(op)]?.[httpMethod(op).toLowerCase()];
      assert.ok(entry, `${op.name} is missing`);
      assert.equal(entry.operationId, op.name);
      assert.deepEqual(Object.keys(entry.responses).sort(),
        ["200", ...[...refusalsByStatus(op).keys()].map(String)].sort(), op.name);
      for (const [status, codes] of refusalsByStatus(op)) {
        assert.deepEqual(entry.responses[status].content["application/json"].schema.properties.fout.properties.code.enum, codes);
      }
      if (op.writes && (op.twoStep ?? true)) {
        const variants = entry.responses["200"].content["application/json"].schema.oneOf;
        assert.deepEqual(variants.map((v: { required: string[] }) => v.required[0]), ["voorstel", "uitgevoerd"], op.name);
      }
    }
    assert.ok(doc.components.schemas.Taak && doc.components.schemas.Persoon, "shared shapes are components");
  });

  it("generates a typed client (openapi-typescript) that type-checks and reads real answers", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-client-"));
    try {
      fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
      fs.writeFileSync(path.join(dir, "koers-api.ts"), astToString(await openapiTS(await served())));
      fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true,
          noUncheckedIndexedAccess: true, skipLibCheck: true, noEmit: true, allowImportingTsExtensions: true, types: ["node"] },
        files: ["client.ts"],
      }));
      fs.writeFileSync(path.join(dir, "client.ts"), CLIENT);
      const tsc = await run(path.join(root, "node_modules/.bin/tsc"), ["-p", "."], { cwd: dir });
      assert.equal(tsc.code, 0, `tsc: ${tsc.out}${tsc.err}`);

      const client = await run(process.execPath, ["--import", "tsx", "client.ts"], { cwd: dir, env: {
        KOERS_URL: o.baseUrl, KOERS_SLEUTEL: o.w.members.eigenaar.apiKey, ORG_ID: o.w.org,
        USER_ID: o.w.members.eigenaar.user_id, NUMMER: String(task.nummer) } });
      assert.equal(client.code, 0, client.err);
      const read = JSON.parse(client.out);
      assert.deepEqual({ ...read, projectId: undefined }, { nummer: task.nummer, omschrijving: "Getypte taak", stand: "open",
        titelWordt: "Getypt project", refusal: "ongeldige_parameters", projectId: undefined });
      const [project] = await o.db.sql`select titel from app.projecten where id = ${read.projectId}`;
      assert.equal(project?.titel, "Getypt project", "the typed client's confirmation wrote the project");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A client as an integrator writes it: openapi-fetch with the generated types. The
// ts-expect-error line fails the type check if the answers were typed loosely (any). (Spelled
// through an interpolation: tsc reads the directive even inside this template.)
const CLIENT = `import createClient from "openapi-fetch";
import type { paths } from "./koers-api.ts";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(name + " is not set");
  return value;
}
const org_id = env("ORG_ID");
const client = createClient<paths>({ baseUrl: env("KOERS_URL"), headers: { Authorization: "Bearer " + env("KOERS_SLEUTEL") } });

const taken = await client.GET("/api/v1/taken", {
  params: { query: { org_id, nummer: Number(env("NUMMER")), ook_afgesloten: "ja", tags: ["Web"] } },
});
if (taken.error) throw new Error("taken: " + taken.error.fout.code);
const taak = taken.data.taken[0];
if (!taak) throw new Error("no task");
const nummer: number = taak.nummer;
const stand: "open" | "bezig" | "wacht op feedback" | "klaar" | "vervallen" = taak.stand;
// ${"@ts-expect-error"} a task has no key titel
void taak.titel;

const body = { org_id, titel: "Getypt project", eigenaar_user_id: env("USER_ID") };
const proposal = await client.POST("/api/v1/project-aanmaken", { body });
if (proposal.error) throw new Error("proposal: " + proposal.error.fout.code);
if (!("bevestigcode" in proposal.data)) throw new Error("expected a proposal");
const titelWordt: string = proposal.data.voorstel.titel.wordt;
const confirmed = await client.POST("/api/v1/project-aanmaken", { body: { ...body, bevestigcode: proposal.data.bevestigcode } });
if (confirmed.error || !("uitgevoerd" in confirmed.data)) throw new Error("expected a confirmation");
const projectId: string = confirmed.data.project.id;

const refused = await client.GET("/api/v1/taak-geschiedenis", { params: { query: { org_id, nummer: 999999 } } });
const refusal: string | undefined = refused.error?.fout.code;

console.log(JSON.stringify({ nummer, omschrijving: taak.omschrijving, stand, titelWordt, projectId, refusal }));
`;
