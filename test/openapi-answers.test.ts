// The output schemas are true: every operation's real answers over HTTP (its success, or its
// proposal and confirmation, and its refusals) validate against the schemas of the registry,
// in three ways: strict (an object with a key its schema does not name fails, so a schema
// cannot miss a key), as the served OpenAPI document says, and as the MCP tool's outputSchema
// with the MCP SDK's own validator.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { dereference } from "@readme/openapi-parser";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { operations, restPath, httpMethod, type Operation } from "../src/registry.ts";
import { errorCodes } from "../src/error-codes.ts";
import { foutSchema, outputSchema, refusalCodes, refusalsByStatus, render, successSchemas, type Schema } from "../src/schemas.ts";
import { request, setupWorld, type HttpResult, type TestSetup } from "./helpers.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
const mcpValidator = new AjvJsonSchemaValidator();

const NOW = "2026-05-13T10:00:00+02:00";
const ids: Record<string, string | number> = {};

const o = setupWorld({
  now: NOW,
  afterSetup: async (o) => {
    // Teams, a business process with an occupied and an open role: every key of team answers.
    const { sql } = o.db;
    await sql`select beheer.lid_aanmaken(${o.w.org}, 'Vera Verkoop', 'vera@acme.test', 'lid', 'Verkoper', 'Verkoop')`;
    const [p] = await sql`insert into app.processen (org_id, naam, eindverantwoordelijke_user_id)
                          values (${o.w.org}, 'Verkoop', ${o.w.members.eigenaar.user_id}) returning id`;
    await sql`insert into app.rollen (org_id, proces_id, naam, user_id) values
              (${o.w.org}, ${p!.id}, 'Accountmanager', ${o.w.members.mt.user_id}), (${o.w.org}, ${p!.id}, 'Binnendienst', null)`;
  },
});

/**
 * How each operation is called with valid input: rows it needs that no operation writes
 * (prepare), and ids a write's confirmation gives for later samples (note).
 */
interface Sample { input: () => Record<string, unknown>; prepare?: () => Promise<void>; note?: (confirmed: any) => void }
const owner = () => o.w.members.eigenaar;

// In order: the writes make what the reads then show.
const samples: Record<string, Sample> = {
  project_aanmaken: {
    input: () => ({ titel: "Website", eigenaar_user_id: owner().user_id, deadline: "2026-12-31", omschrijving: "Nieuw" }),
    note: (c) => { ids.project = c.project.id; },
  },
  prioriteit_aanmaken: {
    input: () => ({ titel: "Tien nieuwe klanten", soort: "rock", eigenaar_user_id: owner().user_id }),
    note: (c) => { ids.prioriteit = c.prioriteit.id; },
  },
  kpi_aanmaken: {
    input: () => ({ naam: "Leads", eenheid: "stuks", eigenaar_user_id: owner().user_id, meetsoort: "teller", cadans: "week" }),
    note: (c) => { ids.kpi = c.kpi.id; },
  },
  kpi_meting_invoeren: { input: () => ({ kpi_id: ids.kpi, waarde: 12, toelichting: "Goede week" }) },
  taak_toevoegen: {
    input: () => ({ prioriteit_id: ids.prioriteit, omschrijving: "Offertes bellen", eigenaar_user_id: owner().user_id,
      deadline: "2026-06-01", week: "deze", grootte: "middel", tags: ["Verkoop", "Bellen"] }),
    note: (c) => { ids.taak = c.taak.id; ids.nummer = c.taak.nummer; },
  },
  taak_bijwerken: {
    input: () => ({ taak_id: ids.taak, stand: "in_uitvoering", eigenaar_user_id: o.w.members.lid.user_id,
      deadline: "2026-06-05", herhalen: "week", omschrijving: "Offertes nabellen", week: "volgende", tags: ["Verkoop"],
      brand_label: null, inschatting_uren: 3 }),
  },
  weektaak_toevoegen: { input: () => ({ titel: "Offertes", prioriteit_id: ids.prioriteit }) },
  dagprioriteiten_zetten: { input: () => ({ prioriteit_1: "Bellen", prioriteit_3: "Mailen" }) },
  sessienotitie_schrijven: {
    input: () => ({ datum: "2026-05-12", titel: "Kwartaalsessie", soort: "kwartaal", samenvatting: "Doelen Q3",
      highlights: ["Omzet op koers"], besluiten: ["Twee verkopers erbij"], learnings: ["Eerder bellen"],
      actiepunten: [{ tekst: "Vacature plaatsen", eigenaar_user_id: owner().user_id, deadline: "2026-06-01" }, { tekst: "Evalueren" }] }),
  },
  strategie_bijwerken: { input: () => ({ velden: { bhag: "Marktleider in 2035", jaarthema: "Groei" } }) },
  wie_ben_ik: { input: () => ({}) },
  team: { input: () => ({}) },
  prioriteiten: { input: () => ({ kwartaal: "Q2-2026" }) },
  kpi_scorebord: { input: () => ({}) },
  weektaken: { input: () => ({ week: "deze" }) },
  taken: { input: () => ({ ook_afgesloten: "ja" }) },
  projecten: { input: () => ({}) },
  taak_geschiedenis: { input: () => ({ nummer: ids.nummer }) },
  reflecties: {
    prepare: () => sql()`insert into app.reflecties (org_id, user_id, soort, periode, goed, energie, ingediend_op)
      values (${o.w.org}, ${owner().user_id}, 'maand', '2026-04', 'Veel verkocht', 7, '2026-05-01T09:00:00Z')`.then(() => {}),
    input: () => ({ soort: "maand" }),
  },
  uren: {
    prepare: () => sql()`insert into app.uren (org_id, user_id, datum, uren, taak_id, project_id) values
      (${o.w.org}, ${owner().user_id}, '2026-05-11', 2, ${ids.taak as string}, null),
      (${o.w.org}, ${owner().user_id}, '2026-05-11', 3, null, ${ids.project as string}),
      (${o.w.org}, ${owner().user_id}, '2026-05-12', 1.5, null, null)`.then(() => {}),
    input: () => ({ van: "2026-05-01", tot: "2026-05-31" }),
  },
  waardering: {
    prepare: () => sql()`insert into app.waarderingen (org_id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde)
      values (${o.w.org}, '2025', 1200000, 180000, 5.5, 990000), (${o.w.org}, 'Q1-2026', null, null, null, null)`.then(() => {}),
    input: () => ({}),
  },
  gesprekken: {
    prepare: () => sql()`insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie)
      values (${o.w.org}, ${o.w.members.lid.user_id}, ${owner().user_id}, 'beoordeling', '2026-03-01', true, 'B'),
             (${o.w.org}, ${o.w.members.mt.user_id}, ${owner().user_id}, 'functionering', '2026-06-01', false, null)`.then(() => {}),
    input: () => ({}),
  },
  // The owner sees established notes; the one sessienotitie_schrijven wrote is established in the app.
  sessienotities: {
    prepare: () => sql()`update app.sessienotities set status = 'vastgesteld', vastgesteld_op = now() where org_id = ${o.w.org}`.then(() => {}),
    input: () => ({}),
  },
  // Without text, the newest of every kind: people at least, whatever ran before.
  zoeken: { input: () => ({ soorten: "taak,prioriteit,project,kpi,persoon" }) },
};
const sql = () => (o as TestSetup).db.sql;

const restOperations = operations.filter((x) => !x.onlyMcp);

/** A call as the owner; apiKey null: without a key. */
function call(op: Operation, input: Record<string, unknown>, key: string | null = owner().apiKey): Promise<HttpResult> {
  const { w, baseUrl } = o as TestSetup;
  const apiKey = key ?? undefined;
  const full = { ...(op.requiresOrg ?? true ? { org_id: w.org } : {}), ...input };
  return httpMethod(op) === "GET"
    ? request(baseUrl, "GET", restPath(op), { apiKey, query: Object.fromEntries(Object.entries(full).map(([k, v]) => [k, String(v)])) })
    : request(baseUrl, "POST", restPath(op), { apiKey, body: full });
}

const compiled = new Map<Schema, ValidateFunction>();
function strictly(schema: Schema): ValidateFunction {
  if (!compiled.has(schema)) compiled.set(schema, ajv.compile(render(schema, { strict: true })));
  return compiled.get(schema)!;
}

/** The OpenAPI document as Koers serves it, its $refs resolved. */
let served: Promise<any> | null = null;
const document = () => (served ??= request(o.baseUrl, "GET", "/api/v1/openapi.json").then((r) => dereference(r.body)));

/** Checks one answer: strict against its registry schema, against the served document, and as MCP output. */
async function check(op: Operation, status: number, body: unknown, schema: Schema, what: string) {
  const strict = strictly(schema);
  assert.ok(strict(body), `${op.name} ${what}: ${ajv.errorsText(strict.errors)}\n${JSON.stringify(body)}`);
  const documented = (await document()).paths[restPath(op)][httpMethod(op).toLowerCase()].responses[String(status)];
  assert.ok(documented, `${op.name}: status ${status} is not in the OpenAPI document`);
  const validate = ajv.compile(documented.content["application/json"].schema);
  assert.ok(validate(body), `${op.name} ${what} against the document: ${ajv.errorsText(validate.errors)}`);
  const mcp = mcpValidator.getValidator(outputSchema(op, { strict: true }))(body);
  assert.ok(mcp.valid, `${op.name} ${what} as MCP output: ${mcp.errorMessage}`);
}

describe("output schemas against real answers", () => {
  it("every REST operation has a sample call here (add one with a new operation)", () => {
    assert.deepEqual(restOperations.map((x) => x.name).filter((n) => !samples[n]), []);
  });

  for (const [name, sample] of Object.entries(samples)) {
    const op = restOperations.find((x) => x.name === name);
    it(`${name}: its answers match its schema`, async (t) => {
      if (!op) return assert.fail(`${name} is no longer in the registry; remove its sample`);
      const successes = successSchemas(op);
      await sample.prepare?.();
      const first = await call(op, sample.input());
      assert.equal(first.status, 200, JSON.stringify(first.body));
      await check(op, 200, first.body, successes[0]!.schema, successes[0]!.name);
      if (op.writes && (op.twoStep ?? true)) {
        const confirmed = await call(op, { ...sample.input(), bevestigcode: first.body.bevestigcode });
        assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
        assert.equal(confirmed.body.uitgevoerd, true);
        await check(op, 200, confirmed.body, successes[1]!.schema, "uitgevoerd");
        // Each schema is only the answer it names: a proposal is no confirmation.
        assert.ok(!strictly(successes[0]!.schema)(confirmed.body), "a confirmation passes as a proposal");
        sample.note?.(confirmed.body);
      }
      await t.test("refusals", async () => {
        const refusals: [string, () => Promise<HttpResult>][] = [
          ["geen_sleutel", () => call(op, sample.input(), null)],
          ["ongeldige_parameters", () => call(op, { ...sample.input(), onbekend: "x" })],
        ];
        const { db, w } = o as TestSetup;
        if (op.section) {
          refusals.push(["onderdeel_uit", async () => {
            await db.sql`select beheer.secties_zetten(${w.org}, array[${op.section}], false)`;
            try { return await call(op, sample.input()); }
            finally { await db.sql`select beheer.secties_zetten(${w.org}, array[${op.section}], true)`; }
          }]);
        }
        if (op.writes) {
          refusals.push(["alleen_lezen", async () => {
            await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true)`;
            try { return await call(op, sample.input()); }
            finally { await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`; }
          }]);
        }
        for (const [code, make] of refusals) {
          const r = await make();
          assert.equal(r.body?.fout?.code, code, JSON.stringify(r.body));
          assert.ok(refusalCodes(op).includes(code as never), `${op.name}: ${code} is not among its refusal codes`);
          await check(op, r.status, r.body, foutSchema(refusalsByStatus(op).get(r.status)!), code);
        }
      });
    });
  }
});

describe("refusal codes follow from the registry", () => {
  it("alleen_lezen only for writes, onderdeel_uit only with a section, verkeerde_organisatie only with org_id", () => {
    for (const op of restOperations) {
      const codes = refusalCodes(op);
      assert.equal(codes.includes("alleen_lezen"), op.writes, op.name);
      assert.equal(codes.includes("onderdeel_uit"), op.section !== null, op.name);
      assert.equal(codes.includes("verkeerde_organisatie"), "org_id" in op.parameters, op.name);
      for (const [status, list] of refusalsByStatus(op)) {
        assert.ok(list.every((c) => errorCodes[c].status === status), `${op.name} ${status}`);
      }
    }
  });
});
