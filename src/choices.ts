// The fixed value lists of the interface and of decisions.md, each defined here and nowhere
// else. The registry builds its `keuze` parameters from them; migrating writes them to
// app.keuzes, from which the database derives its check constraints and the meaning of a value
// (the read-side name of a task stand, the hours of a size, the step of a repetition).

/** A value list; `meaning` is what one value stands for, where decisions.md gives it. */
export type ChoiceList = readonly string[] | Readonly<Record<string, string>>;

export const choices = {
  /** Sections an owner releases for the doors. */
  sectie: ["team", "prioriteiten", "kpis", "weektaken", "reviews", "financien"],
  /** The doors an owner switches on or off per organisation (app.koppelingen). */
  door: ["rest", "mcp", "warehouse"],
  /** Roles of a member, with their rights per operation in the registry. */
  rol: ["eigenaar", "admin", "mt", "lid", "coach"],
  /** A task's stand, write side, with its read-side name. */
  taak_stand: {
    open: "open", in_uitvoering: "bezig", wacht_op_feedback: "wacht op feedback", voltooid: "klaar", vervallen: "vervallen",
  },
  /** A repeating task's step to its next occurrence (a PostgreSQL interval). */
  herhalen: { dag: "1 day", week: "1 week", maand: "1 month", kwartaal: "3 months", jaar: "1 year" },
  /** A task's size with the hours it weighs (decisions.md, Figures). */
  grootte: { klein: "2", middel: "8", groot: "24" },
  prioriteit_soort: ["rock", "okr"],
  meetsoort: ["teller", "stand"],
  cadans: ["week", "month", "quarter"],
  /** What a task belongs to, as the taken filter names it. */
  taak_soort: ["prioriteit", "project", "los"],
  /** A reflection's kind; its period is stored as <yyyy>-<mm>, <yyyy>-Q<n> or <yyyy>. */
  reflectie_soort: ["maand", "kwartaal", "jaar"],
  sessienotitie_soort: ["strategie", "kwartaal", "maand", "check_in", "overig"],
  /** A session note is written as concept and established by the coach in the app. */
  sessienotitie_status: ["concept", "vastgesteld"],
  /** The fields of the strategy canvas (interface, Strategy canvas fields): columns of app.strategie. */
  strategie_veld: ["bhag", "purpose", "dna", "jaarthema", "core_customer", "core_competence", "brand_promise",
    "sandbox_geo", "sandbox_niche", "sandbox_product", "profit_per_x", "profit_per_x_toelichting", "thag"],
  strategievoorstel_status: ["open", "goedgekeurd", "afgewezen"],
  /** Kinds of review conversation (gesprekken). */
  gesprek_soort: ["planning", "voortgang", "functionering", "beoordeling", "exit"],
  /** The final classification of a completed review conversation. */
  eindclassificatie: ["A", "B", "C", "D"],
  /** Columns of the weekly board (a task's status there). */
  weektaak_kolom: ["nieuw", "bezig", "klaar"],
  /** What a role may do with an operation: all of it, its own rows only, or nothing. */
  recht: ["alles", "eigen", "geen"],
  /** A task's urgency. */
  urgentie: ["laag", "normaal", "hoog"],
  /** Kinds of event (app.gebeurtenissen); a webhook subscribes to any of them but webhook.test,
   *  which only the test delivery of a webhook sends. */
  gebeurtenis_soort: ["taak.aangemaakt", "taak.gewijzigd", "taak.klaar", "prioriteit.aangemaakt", "prioriteit.afgerond",
    "kpi.rood", "reflectie.ingediend", "webhook.test"],
  /** Kinds of task history entry (app.taak_geschiedenis). */
  taak_geschiedenis_soort: ["aangemaakt", "stand", "eigenaar", "deadline", "week", "titel", "toelichting", "tags",
    "bijlagen", "subtaken", "verwijderd"],
  /** A parameter's type in app.operatie_parameters (src/parameters.ts). */
  parameter_type: ["uuid", "string", "text", "integer", "number", "keuze", "vlag", "array", "object"],
  /** The change an audit-log row records. */
  audit_actie: ["INSERT", "UPDATE", "DELETE"],
  /** Where a webhook message stands. */
  webhook_bericht_status: ["wacht", "afgeleverd", "mislukt", "overgeslagen"],
  /** How an AI client became known: registered, or by its client metadata document. */
  mcp_client_soort: ["registratie", "metadata_document"],
  /** Why an AI connection was revoked. */
  mcp_intrekking_reden: ["intrekking", "hergebruik", "code_hergebruik", "beheer"],
  /** An AI connection's token: access or refresh. */
  mcp_token_soort: ["toegang", "vernieuwing"],
  /** The kinds of search hit (zoeken, soorten), each with the read operation whose visibility
   *  it follows: a kind is searched only when the caller may call that operation. */
  zoek_soort: {
    taak: "taken", bijlage: "taken", opmerking: "taken", prioriteit: "prioriteiten", project: "projecten",
    kpi: "kpi_scorebord", persoon: "team",
  },
  /** Whether the text of an attachment's file could be read (null: no file, text given as is). */
  bijlage_tekst_status: {
    wacht: "queued for the worker", gelezen: "text extracted", onleesbaar: "the file could not be read",
    niet_ondersteund: "no text is read from this kind of file",
  },
} as const satisfies Record<string, ChoiceList>;

export type ChoiceName = keyof typeof choices;

/** The values of a list, in their order. */
export function values<N extends ChoiceName>(name: N): readonly string[] {
  const list: ChoiceList = choices[name];
  return Array.isArray(list) ? list : Object.keys(list);
}

export type Section = (typeof choices.sectie)[number];
export type Role = (typeof choices.rol)[number];
export type Right = (typeof choices.recht)[number];
export type ParamType = (typeof choices.parameter_type)[number];
