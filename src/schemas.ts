// What operations answer, as JSON Schema: a small builder, the shapes every answer shares
// (a person, a task as app_hidden.taak_weergave shows it, a priority, a KPI, a project, a
// proposal field), and the answers of one operation built from its registry entry: the
// success body, the proposal and the confirmation of a write, and the fout of each refusal
// that applies. OpenAPI (src/api-docs.ts) and the MCP tools' outputSchema use these, so an
// answer is described once. test/openapi-answers.test.ts checks every operation's real
// answers against them.
//
// The schemas are JSON Schema 2020-12 (OpenAPI 3.1) written so that draft-07 validators (the
// MCP SDK's Ajv) read them the same: no $defs, no prefixItems.
import { choices, values } from "./choices.ts";
import { errorCodes, type ErrorCode } from "./error-codes.ts";

export type Schema = Record<string, unknown>;

// A name makes a shape a component of the OpenAPI document; optional marks an object key
// that may be absent. Both are symbols, so they never show in the JSON.
const NAME = Symbol("component name");
const OPTIONAL = Symbol("optional key");
type Marked = Schema & { [NAME]?: string; [OPTIONAL]?: true };

function describe<T extends Schema>(schema: T, description?: string): T {
  return description ? { ...schema, description } : schema;
}

/** The builder. Every object key is required unless wrapped in `optional`. */
export const s = {
  string: (description?: string): Schema => describe({ type: "string" }, description),
  uuid: (description?: string): Schema => describe({ type: "string", format: "uuid" }, description),
  /** A date, yyyy-mm-dd. */
  date: (description?: string): Schema => describe({ type: "string", format: "date" }, description),
  /** An ISO 8601 time with offset. */
  time: (description?: string): Schema => describe({ type: "string", format: "date-time" }, description),
  integer: (description?: string): Schema => describe({ type: "integer" }, description),
  number: (description?: string): Schema => describe({ type: "number" }, description),
  boolean: (description?: string): Schema => describe({ type: "boolean" }, description),
  /** One of these texts. */
  choice: (list: readonly string[], description?: string): Schema => describe({ type: "string", enum: [...list] }, description),
  constant: (value: string | number | boolean, description?: string): Schema => describe({ const: value }, description),
  null: (description?: string): Schema => describe({ type: "null" }, description),
  /** Any JSON value (the old and new value in a task's history). */
  any: (description?: string): Schema => describe({}, description),
  array: (items: Schema, description?: string): Schema => describe({ type: "array", items }, description),
  object: (properties: Record<string, Schema>, description?: string): Schema => describe({
    type: "object",
    required: Object.entries(properties).filter(([, p]) => !(p as Marked)[OPTIONAL]).map(([k]) => k),
    properties: Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, unmark(p, OPTIONAL)])),
  }, description),
  /** Exactly one of these shapes. */
  oneOf: (...options: Schema[]): Schema => ({ oneOf: options }),
  /** This, or null. */
  nullable: (x: Schema): Schema => {
    if (typeof x.type === "string" && !(x as Marked)[NAME]) {
      return { ...x, type: [x.type, "null"], ...(Array.isArray(x.enum) ? { enum: [...x.enum, null] } : {}) };
    }
    return { anyOf: [x, { type: "null" }] };
  },
  /** An object key that may be absent. */
  optional: (x: Schema): Schema => Object.assign({ ...x }, { [OPTIONAL]: true, ...nameOf(x) }),
  /** A shape shown as a component of the OpenAPI document. */
  named: (name: string, x: Schema): Schema => Object.assign({ ...x }, { [NAME]: name }),
};

/** The component name of a named shape, if it has one. */
export function schemaName(x: Schema): string | undefined {
  return (x as Marked)[NAME];
}

function nameOf(x: Schema): { [NAME]?: string } {
  const name = (x as Marked)[NAME];
  return name ? { [NAME]: name } : {};
}

function unmark(x: Schema, mark: typeof OPTIONAL): Schema {
  if (!(x as Marked)[mark]) return x;
  const copy: Marked = Object.assign({ ...x }, nameOf(x));
  delete copy[mark];
  return copy;
}

/** One field of a proposal: what stands now (null when new) and what it becomes. */
export function veld(x: Schema): Schema {
  return s.object({ nu: s.nullable(x), wordt: x });
}

// Value lists that only answers show. Each is defined in SQL where the answer is made; the
// answer tests keep these in step.
/** Priority stand (app_hidden.prioriteit_stand, db/130_figures.sql). */
const PRIORITEIT_STAND = ["op koers", "aandacht nodig", "loopt achter", "nog niet gestart", "geen taken"];
/** KPI traffic light (app_hidden.stoplicht). */
const STOPLICHT = ["op koers", "attentie", "achter"];
// Lists the database also checks (src/choices.ts): a history entry's kind, a weekly-board
// task's column, a task's urgency.
const GESCHIEDENIS_SOORT = values("taak_geschiedenis_soort");
const WEEKTAAK_STATUS = values("weektaak_kolom");
const URGENTIE = values("urgentie");

/** The shapes answers share, as the SQL `*_weergave` functions make them. */
export const shapes = (() => {
  const persoon = s.named("Persoon", s.object({ user_id: s.uuid(), naam: s.string() }, "Een lid van de organisatie."));
  const team = s.named("Team", s.object({ id: s.uuid(), naam: s.string() }));
  /** app_hidden.team_veld: present when the organisation has teams; null is the whole company. */
  const teamVeld = s.optional(s.nullable(team));
  const kwartaal = s.string("Q<n>-<jjjj>");
  const week = s.string("<jjjj>-W<nn>");

  const prioriteit = s.named("Prioriteit", s.object({
    id: s.uuid(), titel: s.string(), soort: s.choice(values("prioriteit_soort")), omschrijving: s.nullable(s.string()),
    eigenaar: persoon, kwartaal, startdatum: s.date(), deadline: s.date(),
    voortgang: s.number("Procent, 0 tot 100."), verstreken: s.number("Verstreken looptijd in procent, 0 tot 100."),
    stand: s.choice(PRIORITEIT_STAND), afgerond: s.boolean(), team: teamVeld,
  }, "Een rock of OKR (app_hidden.prioriteit_weergave)."));

  const kpi = s.named("Kpi", s.object({
    id: s.uuid(), naam: s.string(), eenheid: s.nullable(s.string()), eigenaar: persoon,
    meetsoort: s.choice(values("meetsoort")), cadans: s.choice(values("cadans")), lager_is_beter: s.boolean(),
    kwartaaldoel: s.nullable(s.number()), huidige_stand: s.nullable(s.number()),
    lijn: s.nullable(s.number("De lijn waartegen de stand nu wordt gelegd.")),
    stoplicht: s.nullable(s.choice(STOPLICHT)), bereikt: s.boolean(), laatste_periode: s.nullable(s.string()),
    team: teamVeld,
  }, "Een KPI op het scorebord van een kwartaal (app_hidden.kpi_weergave)."));

  const onderdeel = s.named("Onderdeel", s.oneOf(
    s.object({ soort: s.choice(["prioriteit", "project"]), id: s.uuid(), titel: s.string() }),
    s.object({ soort: s.constant("los") }),
  ));

  /** The fields of a task, also used one by one in taak_bijwerken's proposal. */
  const taakVelden = {
    id: s.uuid(), nummer: s.integer(), omschrijving: s.string(), toelichting: s.nullable(s.string()),
    hoort_bij: onderdeel, eigenaar: s.nullable(persoon), aangemaakt_door: s.nullable(persoon),
    stand: s.choice(Object.values(choices.taak_stand)), deadline: s.nullable(s.date()), week: s.nullable(week),
    urgentie: s.nullable(s.choice(URGENTIE)), tags: s.array(s.string()), brand_label: s.nullable(s.string()),
    grootte: s.nullable(s.choice(values("grootte"))), inschatting_uren: s.nullable(s.number()),
    besteed_uren: s.number(), herhalen: s.nullable(s.choice(values("herhalen"))),
    onder_taak_nummer: s.nullable(s.integer()), subtaken: s.integer("Aantal subtaken."),
  };
  const taak = s.named("Taak", s.object(taakVelden, "Een taak (app_hidden.taak_weergave)."));

  const looptijd = s.object({ van: s.date(), tot: s.nullable(s.date()) });
  const project = s.named("Project", s.object({
    id: s.uuid(), titel: s.string(), omschrijving: s.nullable(s.string()), eigenaar: persoon, looptijd,
    besloten: s.boolean(), open_taken: s.integer(), uren: s.number(),
  }, "Een project (app_hidden.project_weergave)."));

  const weektaak = s.named("Weektaak", s.object({
    id: s.uuid(), titel: s.string(), status: s.choice(WEEKTAAK_STATUS), klaar: s.boolean(),
    rock_id: s.nullable(s.uuid()), week,
  }));

  const actiepunt = s.named("Actiepunt", s.object({ tekst: s.string(), eigenaar: s.nullable(persoon), deadline: s.nullable(s.date()) }));
  const sessienotitie = s.named("Sessienotitie", s.object({
    id: s.uuid(), datum: s.date(), titel: s.string(), soort: s.choice(values("sessienotitie_soort")),
    status: s.choice(values("sessienotitie_status"), "Een concept ziet alleen de coach."), samenvatting: s.string(),
    highlights: s.array(s.string()), besluiten: s.array(s.string()), learnings: s.array(s.string()),
    actiepunten: s.array(actiepunt),
  }, "Een sessienotitie (app_hidden.sessienotitie_weergave)."));

  return { persoon, team, teamVeld, kwartaal, week, prioriteit, kpi, onderdeel, taakVelden, taak, looptijd, project,
    weektaak, actiepunt, sessienotitie,
    stand: { prioriteit: PRIORITEIT_STAND, stoplicht: STOPLICHT, geschiedenis: GESCHIEDENIS_SOORT } };
})();

/**
 * What an operation answers when it succeeds: a read's body, or a write's proposal fields
 * (each a `veld`) and its result (the confirmation answers `{uitgevoerd: true, ...resultaat}`).
 */
export type Output =
  | { kind: "read"; body: Schema }
  | { kind: "write"; voorstel: Record<string, Schema> | null; resultaat: Record<string, Schema> };

/** A read's answer: an object of these keys. */
export function reads(body: Record<string, Schema>): Output {
  return { kind: "read", body: s.object(body) };
}

/** A write's answer: the fields of its proposal (null for a write without two steps) and of its result. */
export function writes(o: { voorstel: Record<string, Schema> | null; resultaat: Record<string, Schema> }): Output {
  return { kind: "write", ...o };
}

// Answers of one operation -------------------------------------------------------------------

/** The part of an operation these functions need (src/registry.ts has the rest). */
export interface Answering {
  name: string;
  writes: boolean;
  section: string | null;
  requiresOrg?: boolean;
  twoStep?: boolean;
  output: Output;
}

const CODE = /^[A-Z2-9]{3}-[A-Z2-9]{3}$/;

/** The successful answers: a read's body; a write's proposal and confirmation (or result, without two steps). */
export function successSchemas(o: Answering): { name: string; description: string; schema: Schema }[] {
  const out = o.output;
  if (out.kind === "read") return [{ name: "antwoord", description: "Het antwoord.", schema: out.body }];
  if (!(o.twoStep ?? true)) {
    return [{ name: "resultaat", description: "Het resultaat; er is geen tweede stap.", schema: s.object(out.resultaat) }];
  }
  return [
    { name: "voorstel", description: "Eerste aanroep (zonder bevestigcode): er verandert niets.", schema: s.object({
      voorstel: s.object(out.voorstel ?? {}, "Per veld wat nu staat (nu) en wat het wordt (wordt)."),
      bevestigcode: describe({ type: "string", pattern: CODE.source }, "Stuur deze met dezelfde invoer om uit te voeren."),
      geldig_tot: s.time("Tot wanneer de code geldt (15 minuten)."),
    }) },
    { name: "uitgevoerd", description: "Tweede aanroep, met de bevestigcode: uitgevoerd.", schema: s.object({
      uitgevoerd: s.constant(true), ...out.resultaat,
    }) },
  ];
}

/** The fout codes an operation can answer with, in the order of errorCodes. */
export function refusalCodes(o: Answering): ErrorCode[] {
  const applies: Record<ErrorCode, boolean> = {
    geen_sleutel: true,
    sleutel_ingetrokken: true,
    verkeerde_organisatie: o.requiresOrg ?? true,
    koppeling_uit: true,
    onderdeel_uit: o.section !== null,
    rol_mag_niet: true,
    alleen_lezen: o.writes,
    herkomst_geweigerd: false, // the AI door refuses a browser Origin over HTTP, before any tool call
    ongeldige_parameters: true,
    onbekend_endpoint: false, // the address exists
    te_groot: o.writes,
    te_veel_verzoeken: true,
    interne_fout: true,
    tijdelijk_onbeschikbaar: true,
    ongeldig_verzoek: false, // a request that reaches no operation
    methode_niet_toegestaan: false, // another method than the operation's
    niet_ondersteund: o.writes,
    headers_te_groot: false, // refused before the request is read
  };
  return (Object.keys(errorCodes) as ErrorCode[]).filter((c) => applies[c]);
}

/** The refusal body with these codes. */
export function foutSchema(codes: readonly ErrorCode[]): Schema {
  return s.object({
    fout: s.object({
      code: s.choice(codes, "Stabiel; bouw hierop."),
      bericht: s.string("Uitleg voor mensen; de tekst kan veranderen."),
      parameter: s.optional(s.string("De parameter die niet klopt, wanneer het er één is.")),
    }),
  });
}

/** The refusals of an operation by HTTP status. */
export function refusalsByStatus(o: Answering): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of refusalCodes(o)) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

// Rendering ----------------------------------------------------------------------------------

export interface RenderOptions {
  /** Named shapes become $refs into this map (the OpenAPI document's components.schemas). */
  components?: Record<string, Schema>;
  /** Every object refuses keys it does not name: what the answer tests use, so a schema that misses a key fails. */
  strict?: boolean;
}

/** A schema as plain JSON: named shapes inlined, or as $refs into `components`. */
export function render(x: Schema, options: RenderOptions = {}): Schema {
  const walk = (v: unknown, top: boolean): unknown => {
    if (Array.isArray(v)) return v.map((e) => walk(e, false));
    if (v === null || typeof v !== "object") return v;
    const name = (v as Marked)[NAME];
    if (name && options.components && !top) {
      if (!options.components[name]) {
        options.components[name] = {}; // reserved first, so a shape that contains itself terminates
        options.components[name] = walk(v, true) as Schema;
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Schema = {};
    for (const [k, e] of Object.entries(v)) {
      // properties is a map of names to schemas, not a schema itself.
      out[k] = k === "properties" ? Object.fromEntries(Object.entries(e as Schema).map(([n, p]) => [n, walk(p, false)]))
        : walk(e, false);
    }
    if (options.strict && out.type === "object" && out.properties) out.additionalProperties = false;
    return out;
  };
  return walk(x, false) as Schema;
}

/**
 * Every answer of an operation, refusals included, as one self-contained schema: the MCP
 * tool's outputSchema (an MCP client checks structured content, error results too, against it).
 */
export function outputSchema(o: Answering, options: { strict?: boolean } = {}): Schema {
  return render({
    type: "object",
    anyOf: [...successSchemas(o).map((a) => a.schema), foutSchema(refusalCodes(o))],
  }, { strict: options.strict });
}
