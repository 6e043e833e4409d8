// The shape of a `koers import` file as JSON Schema (draft 2020-12), built from the value lists
// in src/choices.ts so no list is written twice. docs/import.schema.json is this schema as
// printed by `koers import --schema`; a test keeps the two equal. docs/import.md explains it.
import { values, type ChoiceName } from "../choices.ts";

type Schema = Record<string, unknown>;

/** What each pattern asks for, completing "<field> ..." in a fault (Dutch: people read it). */
export const patternExplanations: Record<string, string> = {};

function pattern(regex: string, explanation: string): Schema {
  patternExplanations[regex] = explanation;
  return { type: "string", pattern: regex };
}

const email = { ...pattern("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "moet een e-mailadres zijn"), maxLength: 254 };
const date = pattern("^\\d{4}-\\d{2}-\\d{2}$", "moet een datum zijn als 2026-05-14");
const quarter = pattern("^Q[1-4]-\\d{4}$", "moet een kwartaal zijn als Q2-2026");
const week = pattern("^\\d{4}-W\\d{2}$", "moet een ISO-week zijn als 2026-W20");
const kpiPeriod = pattern("^\\d{4}-(W\\d{2}|\\d{2}|Q[1-4])$",
  "moet een periode zijn als 2026-W20 (week), 2026-05 (maand) of 2026-Q2 (kwartaal)");
const period = pattern("^(\\d{4}|\\d{4}-\\d{2}|Q[1-4]-\\d{4})$",
  "moet een periode zijn als 2026-05 (maand), Q2-2026 (kwartaal) of 2026 (jaar)");
const notBlank = "\\S";
patternExplanations[notBlank] = "mag niet leeg zijn";

/** A short text: a name or title. */
const name = (max = 200): Schema => ({ type: "string", minLength: 1, maxLength: max, pattern: notBlank });
/** A longer text. */
const text: Schema = { type: "string", maxLength: 10_000 };
const flag: Schema = { type: "boolean" };
const choice = (list: ChoiceName): Schema => ({ enum: [...values(list)] });
const list = (items: Schema, description?: string): Schema => ({ type: "array", items, ...(description ? { description } : {}) });
const texts: Schema = list(name(2_000));
const ref = (what: string): Schema => ({ ...name(), description: `The sleutel or the title of a ${what} of this file.` });
const key: Schema = { ...name(100), description: "The file's own key for this item: its identity across imports." };

function object(required: string[], properties: Record<string, Schema>, description: string): Schema {
  return { type: "object", description, additionalProperties: false, required, properties };
}

const taskFields: Record<string, Schema> = {
  sleutel: key,
  omschrijving: { ...name(2_000), description: "Who does what." },
  toelichting: text,
  eigenaar: { ...email, description: "E-mail address; a subtask without one takes its parent's owner." },
  aangemaakt_door: email,
  stand: { ...choice("taak_stand"), description: "Default open." },
  deadline: date,
  week,
  grootte: choice("grootte"),
  inschatting_uren: { type: "number", minimum: 0, maximum: 10_000 },
  tags: list(name(50)),
  opmerkingen: list(object(["door", "tekst"], { door: email, tekst: { ...name(10_000) } }, "A comment on the task.")),
};

export const importSchema: Schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Koers import file",
  description: "An organisation's people, teams, processes, priorities, KPIs, tasks and more, for `koers import` " +
    "(docs/import.md). People are referred to by e-mail address; other items by their sleutel or their name.",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    toelichting: { ...text, description: "Free text about the file; not imported." },
    mensen: list({ $ref: "#/$defs/persoon" }),
    teams: list({ $ref: "#/$defs/team" }),
    processen: list({ $ref: "#/$defs/proces" }),
    projecten: list({ $ref: "#/$defs/project" }),
    prioriteiten: list({ $ref: "#/$defs/prioriteit" }),
    kpis: list({ $ref: "#/$defs/kpi" }),
    taken: list({ $ref: "#/$defs/taak" }),
    uren: list({ $ref: "#/$defs/uren" }),
    weektaken: list({ $ref: "#/$defs/weektaak" }),
    reflecties: list({ $ref: "#/$defs/reflectie" }),
    waarderingen: list({ $ref: "#/$defs/waardering" }),
    gesprekken: list({ $ref: "#/$defs/gesprek" }),
    sessienotities: list({ $ref: "#/$defs/sessienotitie" }),
    strategie: object([], Object.fromEntries(values("strategie_veld").map((k) => [k, text])),
      "The strategy canvas: the fields given are set."),
  },
  $defs: {
    persoon: object(["email", "naam", "rol"], {
      email, naam: name(), rol: choice("rol"), functietitel: name(),
      team: { ...name(), description: "Name of a team of this file or of the organisation." },
      actief: { ...flag, description: "Default true." },
    }, "A member of the organisation, known by e-mail address."),
    team: object(["naam"], { naam: name(), leider: email }, "A team, known by its name."),
    proces: object(["naam"], {
      naam: name(), eindverantwoordelijke: email, volgorde: { type: "integer", minimum: 0, maximum: 10_000 },
      rollen: list(object(["naam"], { naam: name(), wie: { ...email, description: "Empty: the seat is open." } },
        "A role (a named seat) in the process.")),
    }, "A business process with its role seats."),
    project: object(["titel", "eigenaar"], {
      sleutel: key, titel: name(), eigenaar: email, omschrijving: text,
      startdatum: { ...date, description: "Default: the day of the first import." },
      deadline: date, besloten: flag, leden: list(email, "Who work on it (the owner always does)."), afgerond: flag,
    }, "A project."),
    prioriteit: object(["titel", "soort", "eigenaar", "kwartaal"], {
      sleutel: key, titel: name(), soort: choice("prioriteit_soort"), eigenaar: email, kwartaal: quarter,
      startdatum: date, deadline: { ...date, description: "Within the quarter; default its last day." },
      omschrijving: text, team: name(), afgerond: flag,
      kernresultaten: list(object(["titel", "doel"], {
        titel: name(), start: { type: "number" }, doel: { type: "number" }, waarde: { type: "number" },
      }, "A key result of an OKR: from start (default 0) to doel, now at waarde (default start).")),
    }, "A rock or an OKR."),
    kpi: object(["naam", "eigenaar", "meetsoort", "cadans"], {
      sleutel: key, naam: name(), eenheid: name(50), eigenaar: email, meetsoort: choice("meetsoort"),
      cadans: choice("cadans"), lager_is_beter: flag, team: name(),
      doelen: list(object(["kwartaal", "doel"], { kwartaal: quarter, doel: { type: "number" } }, "A quarter target.")),
      metingen: list(object(["periode", "waarde"], {
        periode: kpiPeriod, waarde: { type: "number" }, toelichting: text, door: email,
      }, "A measurement; its period matches the cadence.")),
    }, "A KPI on the scoreboard."),
    taak: object(["omschrijving"], {
      ...taskFields,
      prioriteit: ref("priority"),
      project: ref("project"),
      herhalen: choice("herhalen"),
      subtaken: list({ $ref: "#/$defs/subtaak" }),
    }, "A task: under a priority, in a project, or loose."),
    subtaak: object(["omschrijving"], taskFields, "A subtask: one layer deep, belongs where its parent belongs."),
    uren: object(["wie", "datum", "uren"], {
      sleutel: key, wie: email, datum: date, uren: { type: "number", exclusiveMinimum: 0, maximum: 24 },
      taak: { ...name(100), description: "The sleutel of a task of this file." },
      prioriteit: ref("priority"), project: ref("project"), omschrijving: text,
    }, "Hours one person spent on one day."),
    weektaak: object(["wie", "week", "titel"], {
      wie: email, week, titel: name(), kolom: { ...choice("weektaak_kolom"), description: "Default nieuw." },
      prioriteit: ref("priority"),
    }, "A task on someone's weekly board."),
    reflectie: object(["wie", "soort", "periode"], {
      wie: email, soort: choice("reflectie_soort"), periode: period, goed: text, beter: text, geleerd: text,
      focus: text, energie: { type: "integer", minimum: 1, maximum: 10 },
      ingediend: { ...flag, description: "Default true." },
    }, "A monthly, quarterly or annual reflection."),
    waardering: object(["periode"], {
      periode: period, omzet: { type: "number" }, genormaliseerde_ebitda: { type: "number" }, multiple: { type: "number" },
      aandelenwaarde: { type: "number" },
    }, "A company valuation; without figures an open invitation to the bookkeeper."),
    gesprek: object(["wie", "met", "soort", "datum"], {
      wie: { ...email, description: "The person the conversation is about." },
      met: { ...email, description: "The conversation leader." },
      soort: choice("gesprek_soort"), datum: date, afgerond: flag, eindoordeel: choice("eindclassificatie"),
    }, "A review conversation."),
    sessienotitie: object(["datum", "titel", "soort", "samenvatting"], {
      sleutel: key, datum: date, titel: name(), soort: choice("sessienotitie_soort"), samenvatting: text,
      highlights: texts, besluiten: texts, learnings: texts,
      actiepunten: list(object(["tekst"], { tekst: name(2_000), eigenaar: email, deadline: date }, "An action point.")),
      vastgesteld: { ...flag, description: "Default true; false keeps it a concept only the coach sees." },
      geschreven_door: email,
    }, "A coach session note."),
  },
};
