// Bad input at the REST door, for every operation the index lists (an operation added later is
// covered without touching this file): NUL characters, lone surrogates, deep nesting, bodies
// that are no JSON object, other content types, form bodies, unknown and inherited parameter
// names, query parameters on a POST, wrong methods, malformed %-escapes and year 0. Each
// refusal is checked for status, fout code, the parameter at fault, a message without
// "undefined", exactly one call-log row, and a service that still answers. Raw-socket cases
// (headers too large, malformed HTTP, an unknown method) come last.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { index } from "../src/api-docs.ts";
import { operations } from "../src/registry.ts";
import type { Param } from "../src/parameters.ts";
import { request, setupWorld, writeTwoStep } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";

interface IndexParam { naam: string; type: string; verplicht: boolean; toelichting: string; waarden?: string[] }
interface Endpoint { operatie: string; methode: "GET" | "POST"; pad: string; schrijft: boolean; parameters: IndexParam[] }

// The index as the door generates it; the first test checks GET /api/v1 serves exactly this.
const endpoints = index().endpoints as Endpoint[];

/** A parameter's rule in the registry: its type, range, pattern. */
function rule(e: Endpoint, p: IndexParam): Param {
  return operations.find((o) => o.name === e.operatie)!.parameters[p.naam]!;
}

const ids = {} as { project: string; prioriteit: string; taak: string; nummer: number; kpi: string };
const o = setupWorld({
  now: NOW,
  afterSetup: async (o) => {
    const key = o.w.members.eigenaar.apiKey;
    const org = o.w.org;
    const project = await writeTwoStep(o.baseUrl, "/api/v1/project-aanmaken", key,
      { org_id: org, titel: "Website", eigenaar_user_id: o.w.members.eigenaar.user_id });
    ids.project = project.confirmed.body.project.id;
    const prio = await writeTwoStep(o.baseUrl, "/api/v1/prioriteit-aanmaken", key,
      { org_id: org, titel: "Tien klanten", soort: "rock", eigenaar_user_id: o.w.members.eigenaar.user_id });
    ids.prioriteit = prio.confirmed.body.prioriteit.id;
    const task = await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", key, { org_id: org, omschrijving: "Offerte maken" });
    ids.taak = task.confirmed.body.taak.id;
    ids.nummer = task.confirmed.body.taak.nummer;
    const kpi = await writeTwoStep(o.baseUrl, "/api/v1/kpi-aanmaken", key,
      { org_id: org, naam: "Leads", eigenaar_user_id: o.w.members.eigenaar.user_id, meetsoort: "teller", cadans: "month" });
    ids.kpi = kpi.confirmed.body.kpi.id;
  },
});

/** A valid value for a parameter, from its name (ids of this world) or else its type. */
function validValue(p: IndexParam): unknown {
  const byName: Record<string, unknown> = {
    org_id: o.w.org, taak_id: ids.taak, nummer: ids.nummer, kpi_id: ids.kpi, prioriteit_id: ids.prioriteit,
    project_id: ids.project, hoort_bij_id: ids.project, onder_taak_nummer: ids.nummer,
  };
  if (p.naam in byName) return byName[p.naam];
  switch (p.type) {
    case "uuid": return o.w.members.eigenaar.user_id;
    case "integer": case "number": return 1;
    case "keuze": return p.waarden![0];
    case "vlag": return "nee";
    case "array": return ["Test"];
    case "object": return {};
    default: return "Test";
  }
}

// Operations whose required parameters alone do not make a valid call.
const extraValid: Record<string, Record<string, unknown>> = {
  taak_bijwerken: { stand: "in_uitvoering" },
  dagprioriteiten_zetten: { prioriteit_1: "Test" },
  sessienotitie_schrijven: { datum: "2026-05-14" },
  strategie_bijwerken: { velden: { bhag: "Test" } },
  // tekst may be empty only with a kind or a filter (docs/decisions.md, Search).
  zoeken: { tekst: "Test" },
};

/** Valid input for an operation: its required parameters (and what extraValid adds). */
function validInput(e: Endpoint): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const p of e.parameters) if (p.verplicht) input[p.naam] = validValue(p);
  return { ...input, ...extraValid[e.operatie] };
}

/** A form body meaning the same as the input: lists as repeated keys, objects as JSON text. */
function formOf(input: Record<string, unknown>): string {
  return Object.entries(input).flatMap(([k, v]) => (Array.isArray(v) ? v : [v])
    .map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))}`))
    .join("&");
}

interface Answer { status: number; text: string; body: any; headers: Headers }

async function send(method: string, pathAndQuery: string, options: { contentType?: string; body?: string | Buffer; apiKey?: string | null } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const apiKey = options.apiKey === undefined ? o.w.members.eigenaar.apiKey : options.apiKey;
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (options.contentType) headers["content-type"] = options.contentType;
  const r = await fetch(o.baseUrl + pathAndQuery, { method, headers, body: options.body as BodyInit | undefined });
  const text = await r.text();
  return { status: r.status, text, body: text ? JSON.parse(text) : null, headers: r.headers };
}

/** An operation called with raw parameter text: a query string for GET, a body for POST. */
function call(e: Endpoint, encoded: { query?: string; json?: string; form?: string }): Promise<Answer> {
  if (e.methode === "GET") return send("GET", `${e.pad}?${encoded.query}`);
  if (encoded.form !== undefined) return send("POST", e.pad, { contentType: "application/x-www-form-urlencoded", body: encoded.form });
  return send("POST", e.pad, { contentType: "application/json", body: encoded.json });
}

/** Valid input plus extra raw parameter text, in the operation's encodings (GET: query; POST: JSON and form). */
function withRaw(e: Endpoint, rawQueryPart: string, rawJsonMember: string): { query?: string; json?: string; form?: string }[] {
  const valid = validInput(e);
  const form = formOf(valid);
  const json = JSON.stringify(valid);
  const jsonWith = json === "{}" ? `{${rawJsonMember}}` : `${json.slice(0, -1)},${rawJsonMember}}`;
  return e.methode === "GET"
    ? [{ query: [form, rawQueryPart].filter(Boolean).join("&") }]
    : [{ json: jsonWith }, { form: [form, rawQueryPart].filter(Boolean).join("&") }];
}

/** The database's clock, as text (and compared as text::timestamptz): a JS Date would drop the microseconds. */
async function dbNow(): Promise<string> {
  const [row] = await o.db.sql`select clock_timestamp()::text as t`;
  return row!.t as string;
}

async function callLogRowsSince(since: string) {
  return o.db.sql`select operatie, status, fout_code from app_private.aanroepen
                  where org_id = ${o.w.org} and tijdstip > ${since}::text::timestamptz order by tijdstip`;
}

/**
 * Sends a request and checks the refusal: status, code, parameter (null: none named), no
 * "undefined", one call-log row for it, and a service that still answers.
 */
async function expectRefusal(what: string, operation: string, r: () => Promise<Answer>,
  status: number, code: string, parameter?: string | null) {
  const since = await dbNow();
  const a = await r();
  const context = `${what}: ${a.text}`;
  assert.equal(a.status, status, context);
  if (a.status !== 200 && a.body !== null) {
    assert.equal(a.body.fout?.code, code, context);
    assert.equal(typeof a.body.fout.bericht, "string", context);
    assert.ok(a.body.fout.bericht.length > 0, context);
    if (parameter !== undefined) assert.equal(a.body.fout.parameter, parameter ?? undefined, context);
  }
  assert.doesNotMatch(a.text, /undefined/, context);
  const rows = await callLogRowsSince(since);
  assert.deepEqual(rows.map((x) => [x.operatie, x.status, x.fout_code]), [[operation, status, code]], `call log of ${context}`);
  const alive = await request(o.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: o.w.members.eigenaar.apiKey });
  assert.equal(alive.status, 200, `service still answers after ${what}`);
  return a;
}

const INHERITED = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf",
  "propertyIsEnumerable", "toLocaleString", "__defineGetter__", "__lookupSetter__"];

/** Formats a date/week/quarter/month parameter takes, from its name and its description in the index. */
function timeFormats(p: IndexParam): ("date" | "week" | "quarter" | "month" | "periodQuarter")[] {
  if (p.type !== "string" && p.type !== "text") return [];
  const f = new Set<"date" | "week" | "quarter" | "month" | "periodQuarter">();
  if (/jjjj-mm-dd|datum/i.test(p.toelichting) || ["deadline", "datum", "van", "tot", "na", "voor"].includes(p.naam)) f.add("date");
  if (/W<nn>|ISO-week/i.test(p.toelichting) || p.naam === "week") f.add("week");
  if (/Q<n>-<jjjj>/.test(p.toelichting) || p.naam === "kwartaal") f.add("quarter");
  if (/<jjjj>-<mm>/.test(p.toelichting)) f.add("month");
  if (/<jjjj>-Q<n>/.test(p.toelichting)) f.add("periodQuarter");
  return [...f];
}
const YEAR_ZERO = { date: "0000-01-01", week: "0000-W01", quarter: "Q1-0000", month: "0000-01", periodQuarter: "0000-Q1" };

function deep(n: number, inner = "1"): string {
  return "[".repeat(n) + inner + "]".repeat(n);
}

describe("the battery covers what the door serves", () => {
  it("GET /api/v1 lists exactly the endpoints this battery iterates", async () => {
    const r = await request(o.baseUrl, "GET", "/api/v1");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.endpoints, endpoints);
    assert.ok(endpoints.length >= 16);
  });
});

for (const e of endpoints) {
  const post = e.methode === "POST";
  const other = e.parameters.filter((p) => p.naam !== "bevestigcode");
  describe(`${e.operatie} (${e.methode} ${e.pad})`, () => {
    it("valid input is accepted (so each refusal below is the bad value's)", async () => {
      const valid = validInput(e);
      const r = post
        ? await request(o.baseUrl, "POST", e.pad, { apiKey: o.w.members.eigenaar.apiKey, body: valid })
        : await send("GET", `${e.pad}?${formOf(valid)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (post) {
        const form = await send("POST", e.pad, { contentType: "application/x-www-form-urlencoded", body: formOf(valid) });
        assert.equal(form.status, 200, form.text);
      }
    });

    if (e.parameters.length > 0) it("a NUL character in any parameter's value is refused naming the parameter", async () => {
      for (const p of e.parameters) {
        for (const enc of withRaw(e, `${p.naam}=a%00b`, `${JSON.stringify(p.naam)}:"a\\u0000b"`)) {
          await expectRefusal(`NUL in ${p.naam} ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
        }
      }
      if (post) {
        const nested = withRaw(e, "", `"${other[0]?.naam ?? "x"}":[{"a":["\\u0000"]}]`)[0]!;
        await expectRefusal("NUL deep inside a value", e.operatie, () => call(e, nested), 400, "ongeldige_parameters", other[0]?.naam ?? "x");
        const inKey = withRaw(e, "", `"${other[0]?.naam ?? "x"}":{"a\\u0000":1}`)[0]!;
        await expectRefusal("NUL in a nested key", e.operatie, () => call(e, inKey), 400, "ongeldige_parameters", other[0]?.naam ?? "x");
      }
    });

    it("a NUL character in a parameter name is refused by that name, shown safely", async () => {
      for (const enc of withRaw(e, "we%00ek=1", `"we\\u0000ek":1`)) {
        await expectRefusal(`NUL in a name ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", "we\\u0000ek");
      }
    });

    it("a lone surrogate (or an escape that is not UTF-8) is refused naming the parameter", async () => {
      for (const p of e.parameters) {
        for (const enc of withRaw(e, `${p.naam}=%ED%A0%80`, `${JSON.stringify(p.naam)}:"x\\ud800"`)) {
          await expectRefusal(`lone surrogate in ${p.naam} ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
        }
        if (post) {
          const low = withRaw(e, "", `${JSON.stringify(p.naam)}:["\\udc00x"]`)[0]!;
          await expectRefusal(`lone low surrogate in ${p.naam}`, e.operatie, () => call(e, low), 400, "ongeldige_parameters", p.naam);
        }
      }
      // In JSON the name is shown with the surrogate spelled out; in a query or form as it was sent.
      for (const enc of withRaw(e, "x%ED%B0%80=1", `"x\\udc00":1`)) {
        await expectRefusal(`lone surrogate in a name ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400,
          "ongeldige_parameters", enc.json ? "x\\udc00" : "x%ED%B0%80");
      }
    });

    it("a malformed %-escape is refused naming the parameter", async () => {
      for (const p of e.parameters) {
        for (const raw of ["%", "%zz", "a%E0%A4%A", "%C3"]) {
          const enc = withRaw(e, `${p.naam}=${raw}`, "").at(-1)!; // the query string, or the form body
          await expectRefusal(`${p.naam}=${raw}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
        }
      }
      const enc = withRaw(e, "a%zz=1", "").at(-1)!;
      await expectRefusal("bad escape in a name", e.operatie, () => call(e, enc), 400, "ongeldige_parameters", "a%zz");
    });

    it("unknown and inherited parameter names are refused by name", async () => {
      for (const name of ["onbekend", ...INHERITED]) {
        for (const enc of withRaw(e, `${encodeURIComponent(name)}=1`, `${JSON.stringify(name)}:"1"`)) {
          await expectRefusal(`${name} ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", name);
        }
      }
    });

    const timed = e.parameters.filter((p) => timeFormats(p).length > 0);
    if (timed.length > 0) it("a date, week, quarter or period in year 0, or free text, is refused naming the parameter", async () => {
      for (const p of timed) {
        for (const f of timeFormats(p)) {
          for (const v of [YEAR_ZERO[f], "gisteren", "2026-13-45", "2026-W99"]) {
            for (const enc of withRaw(e, `${p.naam}=${encodeURIComponent(v)}`, `${JSON.stringify(p.naam)}:${JSON.stringify(v)}`)) {
              await expectRefusal(`${p.naam}=${v} ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
            }
          }
        }
      }
    });

    const numeric = e.parameters.filter((p) => rule(e, p).type === "integer" || rule(e, p).type === "number" || rule(e, p).numeric);
    if (numeric.length > 0) it("a number out of range (1e309, -1e309, past its bounds, past 32 bits) is refused naming the parameter", async () => {
      for (const p of numeric) {
        const r = rule(e, p);
        const bad = ["1e309", "-1e309", "1e400", String((r.max ?? 1e15) + 1), String((r.min ?? -1e15) - 1)];
        if (r.type === "integer") bad.push("2147483648", "-2147483649", "4294967296");
        for (const v of bad) {
          // In JSON as a number (JSON.parse makes 1e309 Infinity, which JSON.stringify makes null:
          // it must not become "not given"), in a query string or form as text.
          for (const enc of withRaw(e, `${p.naam}=${encodeURIComponent(v)}`, `${JSON.stringify(p.naam)}:${v}`)) {
            await expectRefusal(`${p.naam}=${v} ${JSON.stringify(enc)}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
          }
        }
      }
    });

    it("a value of the wrong shape in any parameter (a list, an object, a number, an empty list) is refused naming it", async () => {
      for (const p of e.parameters) {
        const r = rule(e, p);
        // JSON values that are none of this parameter's shape (a query string holds only texts: below).
        const shapes: Record<Param["type"], string[]> = {
          uuid: ["[]", "{}", "[1]", "true", "1"], string: ["[]", "{}", "[1]", "true", "1"], keuze: ["[]", "{}", "[1]", "true", "1"],
          text: r.numeric ? ["[]", "{}", "[1]", "true", '"x"'] : ["[]", "{}", "[1]", "true", "1"],
          integer: ["[]", "{}", "[1]", "true", '"x"', "1.5"], number: ["[]", "{}", "[1]", "true", '"x"'],
          vlag: ["[]", "{}", "[1]", "1", '"misschien"'],
          array: r.elements ? ["{}", "[1]", "1"] : ["{}", "[[1]]", "[{}]", "1", "true"],
          object: ["[]", "1", '"geen json"'],
        };
        if (post) {
          for (const v of shapes[r.type]) {
            const enc = withRaw(e, "", `${JSON.stringify(p.naam)}:${v}`)[0]!;
            await expectRefusal(`${p.naam}=${v}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
          }
        }
        // From a query string or a form: a list where one value belongs, and JSON-ish text.
        if (r.type !== "array" && r.type !== "object") {
          for (const raw of [`${p.naam}=[]`, `${p.naam}%5B%5D=`, `${p.naam}=a&${p.naam}=b`]) {
            if (raw.endsWith("=[]") && r.type === "text" && !r.pattern && !r.numeric) continue; // free text: "[]" is text
            if (raw.endsWith("=[]") && r.type === "string" && !r.pattern) continue;
            const enc = withRaw(e, raw, "").at(-1)!;
            await expectRefusal(`${raw}`, e.operatie, () => call(e, enc), 400, "ongeldige_parameters", p.naam);
          }
        }
      }
    });

    it("a wrong method answers 405 with Allow and a fout, logged", async () => {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"].filter((m) => m !== e.methode)) {
        const a = await expectRefusal(`${method} ${e.pad}`, `${method} ${e.pad}`,
          () => send(method, `${e.pad}?org_id=${o.w.org}`), 405, "methode_niet_toegestaan", null);
        assert.equal(a.headers.get("allow"), post ? "POST" : "GET, HEAD");
      }
      // Without a key too: the address is decided before the key.
      const a = await send(post ? "GET" : "DELETE", e.pad, { apiKey: null });
      assert.deepEqual([a.status, a.body.fout.code], [405, "methode_niet_toegestaan"]);
    });

    it("a malformed %-escape in the path answers 400 with a fout, logged", async () => {
      // The last: a UTF-8 sequence cut short.
      for (const path of [`${e.pad}%`, `${e.pad}%zz`, e.pad.replace("/api/v1/", "/api/v1/%E0%A4")]) {
        await expectRefusal(path, `${e.methode} ${path}`, () => send(e.methode, path), 400, "ongeldig_verzoek", null);
      }
    });

    if (!post) return;

    it("deep nesting is refused naming the parameter, at any depth up to thousands", async () => {
      for (const [i, p] of other.entries()) {
        for (const n of i === 0 ? [33, 5000, 100_000] : [33, 5000]) {
          await expectRefusal(`${p.naam} ${n} deep`, e.operatie,
            () => call(e, withRaw(e, "", `${JSON.stringify(p.naam)}:${deep(n)}`)[0]!), 400, "ongeldige_parameters", p.naam);
        }
      }
      await expectRefusal("a body nested 5000 deep", e.operatie,
        () => send("POST", e.pad, { contentType: "application/json", body: deep(5000, "{}") }), 400, "ongeldige_parameters", null);
      await expectRefusal("objects nested 5000 deep", e.operatie,
        () => send("POST", e.pad, { contentType: "application/json", body: '{"a":'.repeat(5000) + "1" + "}".repeat(5000) }),
        400, "ongeldige_parameters", "a");
    });

    it("a body that is no JSON object is refused", async () => {
      for (const body of ['"tekst"', "42", "true", "false", "[]", `[${JSON.stringify(validInput(e))}]`, "null", "{", "{'a':1}", "\u00ff"]) {
        await expectRefusal(`body ${body}`, e.operatie, () => send("POST", e.pad, { contentType: "application/json", body }),
          400, "ongeldige_parameters", null);
      }
      await expectRefusal("a body that is not UTF-8", e.operatie,
        () => send("POST", e.pad, { contentType: "application/json", body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }),
        400, "ongeldige_parameters", null);
    });

    it("other content types answer 415 naming the accepted ones", async () => {
      const valid = JSON.stringify(validInput(e));
      for (const contentType of ["text/plain", "text/plain; charset=utf-8", "application/xml", "multipart/form-data; boundary=x",
        "application/json; charset=latin1", "application/x-www-form-urlencoded; charset=utf-16"]) {
        const a = await expectRefusal(contentType, e.operatie, () => send("POST", e.pad, { contentType, body: valid }), 415, "niet_ondersteund", null);
        assert.match(a.body.fout.bericht, /application\/json/);
        assert.match(a.body.fout.bericht, /application\/x-www-form-urlencoded/);
      }
      await expectRefusal("an unreadable Content-Type", e.operatie,
        () => send("POST", e.pad, { contentType: "???", body: valid }), 415, "niet_ondersteund", null);
    });

    it("a form body with a bad value is refused naming the parameter", async () => {
      const bad: Record<string, string> = { uuid: "geen-uuid", integer: "een", number: "veel", keuze: "onzin", vlag: "misschien" };
      const checkable = e.parameters.filter((x) => x.type in bad);
      assert.ok(checkable.length > 0, "every write takes org_id, a uuid");
      for (const p of checkable) {
        const form = formOf({ ...validInput(e), [p.naam]: bad[p.type]! });
        await expectRefusal(`form ${p.naam}=${bad[p.type]}`, e.operatie, () => call(e, { form }), 400, "ongeldige_parameters", p.naam);
      }
    });

    it("parameters in a POST's query string are refused by name, not ignored", async () => {
      const body = JSON.stringify(validInput(e));
      for (const [query, name] of [[`org_id=${o.w.org}`, "org_id"], ["bevestigcode=ABC-DEF&x=1", "bevestigcode"], ["x", "x"], ["a%zz=1", "a%zz"]]) {
        await expectRefusal(`?${query}`, e.operatie, () => send("POST", `${e.pad}?${query}`, { contentType: "application/json", body }),
          400, "ongeldige_parameters", name);
      }
    });
  });
}

describe("form bodies mean the same as JSON bodies", () => {
  it("a form-encoded write (lists, numbers, flags as in query strings) proposes the same, and one code confirms either", async () => {
    const key = o.w.members.eigenaar.apiKey;
    const input = { org_id: o.w.org, omschrijving: "Formulier", tags: ["Web", "Tekst"], inschatting_uren: 3, week: "volgende" };
    const json = await request(o.baseUrl, "POST", "/api/v1/taak-toevoegen", { apiKey: key, body: input });
    const form = await send("POST", "/api/v1/taak-toevoegen", { contentType: "application/x-www-form-urlencoded; charset=UTF-8",
      body: `org_id=${o.w.org}&omschrijving=Formulier&tags=Web&tags=Tekst&inschatting_uren=3&week=volgende` });
    assert.equal(form.status, 200, form.text);
    assert.deepEqual(form.body.voorstel, json.body.voorstel);
    const confirmed = await send("POST", "/api/v1/taak-toevoegen", { contentType: "application/x-www-form-urlencoded",
      body: `org_id=${o.w.org}&omschrijving=Formulier&tags=Web,Tekst&inschatting_uren=3&week=volgende&bevestigcode=${json.body.bevestigcode}` });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.deepEqual([confirmed.body.uitgevoerd, confirmed.body.taak.tags, confirmed.body.taak.inschatting_uren], [true, ["Tekst", "Web"], 3]);
  });
  it("a flag as ja/nee and a + as a space", async () => {
    const r = await send("POST", "/api/v1/kpi-aanmaken", { contentType: "application/x-www-form-urlencoded",
      body: `org_id=${o.w.org}&naam=Klant+verloop&eigenaar_user_id=${o.w.members.lid.user_id}&meetsoort=stand&cadans=month&lager_is_beter=ja` });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.voorstel.naam.wordt, r.body.voorstel.lager_is_beter.wordt], ["Klant verloop", true]);
  });
});

describe("an unknown address", () => {
  it("404 onbekend_endpoint with a fout, logged, also with a NUL in the path", async () => {
    await expectRefusal("unknown path", "GET /api/v1/bestaat-niet", () => send("GET", "/api/v1/bestaat-niet"), 404, "onbekend_endpoint", null);
    await expectRefusal("NUL in the path", "GET /api/v1/ta\\u0000ken", () => send("GET", "/api/v1/ta%00ken"), 404, "onbekend_endpoint", null);
  });
});

/** Raw bytes to the door's port; the whole answer once the server closes the connection. */
function rawHttp(text: string | Buffer): Promise<string> {
  const { port, hostname } = new URL(o.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => { answer += d; });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5000, () => { socket.destroy(); reject(new Error(`no answer to ${String(text).slice(0, 40)}`)); });
  });
}

describe("raw HTTP the door cannot route", () => {
  async function expectRaw(what: string, text: string | Buffer, status: number, code: string, operation = "HTTP") {
    const since = await dbNow();
    const answer = await rawHttp(text);
    const [head, body] = answer.split("\r\n\r\n") as [string, string];
    assert.match(head, new RegExp(`^HTTP/1\\.1 ${status} `), `${what}: ${answer}`);
    assert.match(head, /content-type: application\/json/i, what);
    assert.equal(/content-length: (\d+)/i.exec(head)?.[1], String(Buffer.byteLength(body)), `${what}: well-formed length`);
    const fout = JSON.parse(body).fout;
    assert.equal(fout.code, code, what);
    assert.doesNotMatch(body, /undefined/, what);
    const rows = await o.db.sql`select operatie, status, fout_code from app_private.aanroepen_zonder_org
                                where tijdstip > ${since}::text::timestamptz order by tijdstip`;
    assert.deepEqual(rows.map((x) => [x.operatie, x.status, x.fout_code]), [[operation, status, code]], `${what}: call log`);
    const alive = await request(o.baseUrl, "GET", "/api/v1/wie-ben-ik", { apiKey: o.w.members.eigenaar.apiKey });
    assert.equal(alive.status, 200, `service still answers after ${what}`);
  }
  const auth = () => `Authorization: Bearer ${o.w.members.eigenaar.apiKey}\r\n`;
  it("headers over the limit: 431 headers_te_groot", async () =>
    expectRaw("big headers", `GET /api/v1/wie-ben-ik HTTP/1.1\r\nHost: x\r\n${auth()}X-Groot: ${"a".repeat(20_000)}\r\n\r\n`,
      431, "headers_te_groot"));
  it("an unknown method: 400 ongeldig_verzoek", async () =>
    expectRaw("FOO", `FOO /api/v1/taken HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`, 400, "ongeldig_verzoek"));
  it("CONNECT (a proxy request): 400 ongeldig_verzoek", async () =>
    expectRaw("CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 400, "ongeldig_verzoek",
      "CONNECT example.com:443"));
  it("malformed HTTP: 400 ongeldig_verzoek", async () => {
    for (const [what, text] of [
      ["garbage", "GARBAGE\r\n\r\n"],
      ["a header without colon", `GET /api/v1 HTTP/1.1\r\nHost: x\r\nKapot\r\n\r\n`],
      ["a NUL in a header", `GET /api/v1/wie-ben-ik HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n`],
      ["a bad Content-Length", `POST /api/v1/taak-toevoegen HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}`],
      ["two Content-Lengths", `POST /api/v1/taak-toevoegen HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
      ["a space in the path", `GET /api/v1/ta ken HTTP/1.1\r\nHost: x\r\n\r\n`],
      ["a byte above ASCII in the path", Buffer.from("GET /api/v1/tak\xe9n HTTP/1.1\r\nHost: x\r\n\r\n", "latin1")],
      ["a bad chunk size", `POST /api/v1/taak-toevoegen HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        "Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n"],
      ["an HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"],
    ] as const) {
      await expectRaw(what, text, 400, "ongeldig_verzoek");
    }
  });
});
