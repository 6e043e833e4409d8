// The one list of operations. Each entry names an operation as the interface does, with its
// kind, section, module, the rights of each role (decisions.md) and its parameters. The REST
// routes, the REST index, the OpenAPI document and the MCP tools are generated from it, and
// migrating writes it to the database (app.operaties, app.rol_rechten, app.operatie_parameters),
// where api.<name> does the work and every call is checked against it.
import { param, type Param } from "./parameters.ts";
import { values, type Role, type Section } from "./choices.ts";
import { s, shapes, veld, reads, writes, type Output } from "./schemas.ts";

export type { Section } from "./choices.ts";

/** What a role may do with an operation: all of it, its own rows only, or nothing. */
export type Right = "alles" | "eigen" | "geen";

export interface Operation {
  name: string;
  writes: boolean;
  section: Section | null;
  /** The module an organisation can switch off (then the operation answers rol_mag_niet). */
  module: string;
  /** Rights of lid and coach; eigenaar, admin and mt have "alles" unless given here. */
  rights: Partial<Record<Role, Right>> & { lid: Right; coach: Right };
  description: string;
  parameters: Record<string, Param>;
  /** False only for wie_ben_ik: every other operation takes org_id. */
  requiresOrg?: boolean;
  /** False for strategie_bijwerken, which stores a proposal instead. */
  twoStep?: boolean;
  /** Only on the AI connection (organisaties). */
  onlyMcp?: boolean;
  /** A short title (the MCP tool's title, the docs page's heading). */
  title: string;
  /** A write that changes or removes what exists, not only adds (MCP destructiveHint). */
  destructive?: boolean;
  /**
   * What it answers on success, as JSON Schema (OpenAPI and the MCP tools' outputSchema are
   * made from it; test/openapi-answers.test.ts checks real answers against it). Read it off the
   * SQL that makes the answer (`api.<name>`, the `*_weergave` functions) and use the builder and
   * shared shapes of src/schemas.ts:
   * - a read: `reads({ taken: s.array(shapes.taak), afgekapt: s.boolean() })`, the keys of its body;
   * - a write: `writes({ voorstel: { titel: veld(s.string()), ... }, resultaat: { taak: shapes.taak } })`,
   *   the keys of `voorstel` (each `veld(x)`: {nu, wordt}) and of `resultaat` as api.<name> returns
   *   them; `voorstel: null` for a write without two steps.
   * Every key is required unless wrapped in `s.optional`; a value that can be null is `s.nullable(x)`.
   */
  output: Output;
  /** Parameters the example curl line of /api/v1/docs adds to the required ones, when those alone make no working call. */
  example?: Record<string, string>;
}

const DATE = { pattern: /^\d{4}-\d{2}-\d{2}$/, explanation: "moet een datum zijn als jjjj-mm-dd" };
const UUID = { pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, explanation: "moet een uuid zijn" };
const TAGS = { maxItems: 50, itemMax: 50 };
const HOURS = { min: 0, max: 10_000 };

const WEEK = { pattern: /^(\d{4}-W\d{2}|deze|volgende)$/, explanation: "moet een ISO-week zijn als 2026-W07, of deze of volgende" };
/** highlights, besluiten, learnings of a session note: texts. */
const NOTE_TEXTS = { maxItems: 50, itemMax: 2000 };
const QUARTER = { pattern: /^Q[1-4]-\d{4}$/, explanation: "moet een kwartaal zijn als Q2-2026" };

const definitions: Operation[] = [
  {
    name: "wie_ben_ik",
    title: "Wie ben ik",
    writes: false,
    section: null,
    module: "koppeling",
    rights: { lid: "alles", coach: "alles" },
    requiresOrg: false,
    description: "Controleert een API-sleutel: de organisatie en de persoon namens wie de sleutel werkt.",
    parameters: {},
    output: reads({
      organisatie: s.object({ org_id: s.uuid(), naam: s.string() }),
      gebruiker: s.object({ user_id: s.uuid(), naam: s.string(), rol: s.choice(values("rol")) }),
      sleutel_id: s.nullable(s.uuid("De API-sleutel; null op de AI-koppeling.")),
      door: s.choice(["rest", "mcp"]),
    }),
  },
  {
    name: "organisaties",
    title: "Organisaties",
    writes: false,
    section: null,
    module: "koppeling",
    rights: { lid: "alles", coach: "alles" },
    requiresOrg: false,
    onlyMcp: true,
    description: "De organisaties waar jij lid bent en de AI-koppeling aan staat: org_id, naam, je rol, de " +
      "vrijgegeven onderdelen en of de koppeling op alleen lezen staat. Elke andere tool vraagt een org_id uit deze lijst.",
    parameters: {},
    output: reads({
      organisaties: s.array(s.object({
        org_id: s.uuid(), naam: s.string(), rol: s.choice(values("rol")),
        onderdelen: s.array(s.choice(values("sectie")), "De vrijgegeven onderdelen."),
        alleen_lezen: s.boolean("De AI-koppeling staat op alleen lezen: schrijven kan niet."),
      })),
    }),
  },
  {
    name: "team",
    title: "Team en processen",
    writes: false,
    section: "team",
    module: "team",
    rights: { lid: "alles", coach: "alles" },
    description: "Leden met rol, functietitel en team; teams met hun leider; bedrijfsprocessen met " +
      "eindverantwoordelijke en rollen (bezet of open); open rollen; leden zonder rol.",
    parameters: {},
    output: reads({
      leden: s.array(s.object({ user_id: s.uuid(), naam: s.string(), rol: s.choice(values("rol")),
        functietitel: s.nullable(s.string()), team: shapes.teamVeld })),
      processen: s.array(s.object({ id: s.uuid(), naam: s.string(), eindverantwoordelijke: s.nullable(shapes.persoon),
        rollen: s.array(s.object({ id: s.uuid(), naam: s.string(), wie: s.nullable(shapes.persoon) })) })),
      open_rollen: s.array(s.object({ id: s.uuid(), naam: s.string(), proces: s.string() })),
      zonder_rol: s.array(shapes.persoon),
      teams: s.optional(s.array(s.object({ id: s.uuid(), naam: s.string(), leider: s.nullable(shapes.persoon) }),
        "Alleen wanneer de organisatie teams heeft.")),
    }),
  },
  {
    name: "prioriteiten",
    title: "Prioriteiten (rocks en OKR's)",
    writes: false,
    section: "prioriteiten",
    module: "prioriteiten",
    rights: { lid: "alles", coach: "alles" },
    description: "Rocks en OKR's van een kwartaal in één lijst, met eigenaar, voortgang, verstreken tijd, stand " +
      "(op koers, aandacht nodig, loopt achter, nog niet gestart, geen taken) en deadline.",
    parameters: {
      kwartaal: param.string("Q<n>-<jjjj>; leeg is het lopende kwartaal.", QUARTER),
      alleen_aandacht: param.flag("Alleen prioriteiten die achterlopen, aandacht nodig hebben of over hun deadline zijn."),
      team: param.string("Teamnaam of id (uit team); geen geeft de bedrijfsbrede."),
    },
    output: reads({ kwartaal: shapes.kwartaal, prioriteiten: s.array(shapes.prioriteit) }),
  },
  {
    name: "kpi_scorebord",
    title: "KPI-scorebord",
    writes: false,
    section: "kpis",
    module: "kpis",
    rights: { lid: "alles", coach: "alles" },
    description: "Het KPI-scorebord van een kwartaal: kwartaaldoel, huidige stand, lijn en stoplicht " +
      "(op koers, attentie, achter) per KPI.",
    parameters: {
      kwartaal: param.string("Q<n>-<jjjj>; leeg is het lopende kwartaal.", QUARTER),
      team: param.string("Teamnaam of id; geen geeft de bedrijfsbrede KPI's."),
    },
    output: reads({ kwartaal: shapes.kwartaal, kpis: s.array(shapes.kpi) }),
  },
  {
    name: "weektaken",
    title: "Weekbord",
    writes: false,
    section: "weektaken",
    module: "weektaken",
    rights: { lid: "eigen", coach: "geen" },
    description: "Het weekbord per persoon voor één ISO-week: titel, status, klaar en de rock waar een taak bij hoort.",
    parameters: { week: param.string("ISO-week <jjjj>-W<nn>, deze of volgende; leeg is deze week.", WEEK) },
    output: reads({
      week: shapes.week,
      borden: s.array(s.object({ persoon: shapes.persoon, taken: s.array(shapes.weektaak) })),
    }),
  },
  {
    name: "taken",
    title: "Taken",
    writes: false,
    section: "prioriteiten",
    module: "prioriteiten",
    rights: { lid: "alles", coach: "alles" },
    description: "Taken met nummer, omschrijving, waar ze bij horen, eigenaar, stand, deadline, week, tags en uren. " +
      "Hoogstens 200; afgekapt is true wanneer er meer zijn.",
    parameters: {
      soort: param.choice(values("taak_soort"), "Leeg is alles."),
      hoort_bij_id: param.uuid("Eén prioriteit of project."),
      eigenaar_user_id: param.uuid("Eigenaar."),
      ook_afgesloten: param.flag("Ook klare of vervallen taken. Standaard alleen open taken."),
      week: param.string("<jjjj>-W<nn>, deze of volgende.", WEEK),
      tags: param.array("Alleen taken met al deze tags (hoofdletters tellen niet).", TAGS),
      nummer: param.integer("Geeft die ene taak, ook als die klaar of vervallen is; andere filters tellen dan niet.", { min: 1 }),
    },
    output: reads({ taken: s.array(shapes.taak), afgekapt: s.boolean("Meer dan 200: filter verder.") }),
  },
  {
    name: "projecten",
    title: "Projecten",
    writes: false,
    section: "prioriteiten",
    module: "projecten",
    rights: { lid: "alles", coach: "alles" },
    description: "Lopende projecten die je in de app ziet: titel, eigenaar, looptijd, besloten, open taken, bestede uren.",
    parameters: {},
    output: reads({ projecten: s.array(shapes.project) }),
  },
  {
    name: "taak_geschiedenis",
    title: "Geschiedenis van een taak",
    writes: false,
    section: "prioriteiten",
    module: "prioriteiten",
    rights: { lid: "alles", coach: "alles" },
    description: "Wijzigingen van een taak, nieuwste eerst: soort, wie (leeg is automatisch), wanneer, oude en nieuwe waarde.",
    parameters: { nummer: param.integer("Taaknummer.", { required: true, min: 1 }) },
    output: reads({
      taak: s.object({ id: s.uuid(), nummer: s.integer(), omschrijving: s.string() }),
      geschiedenis: s.array(s.object({
        soort: s.choice(shapes.stand.geschiedenis), door: s.nullable(shapes.persoon), tijdstip: s.time(),
        oud: s.any("De oude waarde."), nieuw: s.any("De nieuwe waarde."),
      }), "Nieuwste eerst; door null is automatisch."),
    }),
  },
  {
    name: "zoeken",
    title: "Zoeken",
    writes: false,
    section: null,
    module: "zoeken",
    rights: { lid: "alles", coach: "alles" },
    description: "Zoekt in taken (titel, toelichting, tags), bijlagen (naam en tekst van PDF, Word en Excel), " +
      "opmerkingen, prioriteiten met kernresultaten, projecten, KPI's en mensen, ook klaar en vervallen, over alle " +
      "kwartalen; alleen in onderdelen die vrijgegeven zijn en die je mag zien. Nederlandse woordvormen en accenten " +
      "tellen niet (taken vindt taak, cafe vindt café). Per treffer soort, nummer, titel, waar het bij hoort, stand, " +
      "waar de tekst gevonden is en een fragment met de treffer tussen **. Hoogstens 25; afgekapt is true wanneer er meer zijn.",
    parameters: {
      // The interface calls tekst required yet empty when searching by filters only. Empty text
      // counts as not given (app_hidden.invoer_controleren), so the registry cannot require it:
      // api.zoeken refuses a call without text, filter or kind, naming tekst.
      tekst: param.string("Zoektekst, of een taaknummer als #<nummer>. Verplicht, maar leeg wanneer je alleen op " +
        "soorten, tags of een ander filter zoekt; dan komen de nieuwste treffers eerst.", { max: 500 }),
      soorten: param.array("Alleen deze soorten; leeg is alles.", { values: values("zoek_soort"), maxItems: values("zoek_soort").length }),
      alleen_open: param.flag("Alleen wat nog open is (taken met hun bijlagen en opmerkingen, prioriteiten, projecten)."),
      alleen_klaar: param.flag("Alleen wat klaar of afgesloten is (taken met hun bijlagen en opmerkingen, prioriteiten, projecten)."),
      eigenaar_user_id: param.uuid("Eigenaar (van een bijlage of opmerking: van de taak)."),
      aangemaakt_door_user_id: param.uuid("Wie de taak aanmaakte, de bijlage uploadde of de opmerking schreef."),
      hoort_bij_id: param.uuid("Eén prioriteit of project: de taken eronder, met hun bijlagen en opmerkingen."),
      tags: param.array("Alleen taken met al deze tags (hoofdletters tellen niet).", TAGS),
      na: param.string("jjjj-mm-dd: alleen wat op of na deze dag is bijgewerkt.", DATE),
      voor: param.string("jjjj-mm-dd: alleen wat voor deze dag is bijgewerkt.", DATE),
    },
    // app_hidden.zoek_weergave (db/260_zoeken.sql).
    output: reads({
      resultaten: s.array(s.object({
        soort: s.choice(values("zoek_soort")),
        id: s.uuid(),
        nummer: s.nullable(s.integer("Het taaknummer (ook van de taak van een bijlage of opmerking).")),
        titel: s.string(),
        hoort_bij: s.nullable(s.oneOf(
          shapes.onderdeel,
          s.object({ soort: s.constant("taak"), id: s.uuid(), nummer: s.integer(), titel: s.string() }),
          s.object({ soort: s.constant("team"), id: s.uuid(), titel: s.string() }))),
        stand: s.nullable(s.string("Van een taak, prioriteit, project of KPI (het stoplicht).")),
        bijgewerkt_op: s.time(),
        waar: s.nullable(s.string("Het veld waarin de tekst gevonden is; null zonder zoektekst.")),
        plek: s.optional(s.nullable(s.string("Pagina of werkblad in het bestand van een bijlage."))),
        fragment: s.nullable(s.string("Een stukje tekst met de treffer tussen **.")),
        afgerond: s.optional(s.boolean("Van een prioriteit.")),
        kwartaal: s.optional(s.string("Van een prioriteit.")),
      })),
      afgekapt: s.boolean("Er zijn meer treffers dan de 25 die getoond worden."),
    }),
    example: { tekst: "offerte" },
  },
  {
    name: "prioriteit_aanmaken",
    title: "Prioriteit aanmaken",
    writes: true,
    section: "prioriteiten",
    module: "prioriteiten",
    rights: { lid: "alles", coach: "geen" },
    description: "Maakt één rock of OKR aan (advies: drie tot vijf per persoon per kwartaal). Een OKR krijgt zijn " +
      "kernresultaten in de app. Twee stappen.",
    parameters: {
      titel: param.string("Kort, geformuleerd als resultaat.", { required: true, max: 200 }),
      soort: param.choice(values("prioriteit_soort"), "Geen standaard.", { required: true }),
      eigenaar_user_id: param.uuid("Uit team.", { required: true }),
      kwartaal: param.string("Q<n>-<jjjj>; leeg is het lopende kwartaal.", QUARTER),
      deadline: param.string("jjjj-mm-dd binnen het kwartaal; leeg is het einde van het kwartaal.", DATE),
      omschrijving: param.string("Waarom, en wanneer het af is."),
    },
    output: writes({
      voorstel: {
        titel: veld(s.string()), soort: veld(s.choice(values("prioriteit_soort"))), eigenaar: veld(shapes.persoon),
        kwartaal: veld(shapes.kwartaal), deadline: veld(s.date()), omschrijving: veld(s.nullable(s.string())),
        advies: s.optional(s.string("Wanneer de eigenaar meer dan vijf prioriteiten in het kwartaal krijgt.")),
      },
      resultaat: { prioriteit: shapes.prioriteit },
    }),
  },
  {
    name: "kpi_meting_invoeren",
    title: "KPI-meting invoeren",
    destructive: true,
    writes: true,
    section: "kpis",
    module: "kpis",
    rights: { lid: "eigen", coach: "geen" },
    description: "Eén meting op een KPI; overschrijft een eerdere meting in dezelfde periode. Een toelichting is " +
      "verplicht wanneer de KPI op attentie of achter uitkomt. Twee stappen.",
    parameters: {
      kpi_id: param.uuid("Uit kpi_scorebord.", { required: true }),
      waarde: param.number("In de eenheid van de KPI.", { required: true }),
      periode: param.string("<jjjj>-W<nn> (week), <jjjj>-<mm> (maand), <jjjj>-Q<n> (kwartaal); leeg is de lopende " +
        "week of maand, of voor een kwartaal-KPI het vorige kwartaal.",
        { pattern: /^\d{4}-(W\d{2}|\d{2}|Q[1-4])$/, explanation: "moet <jjjj>-W<nn>, <jjjj>-<mm> of <jjjj>-Q<n> zijn" }),
      toelichting: param.string("Verplicht wanneer de KPI op attentie of achter uitkomt."),
    },
    output: writes({
      voorstel: {
        kpi: veld(s.object({ id: s.uuid(), naam: s.string() })), periode: veld(s.string()), waarde: veld(s.number()),
        toelichting: veld(s.nullable(s.string())), stoplicht: veld(s.nullable(s.choice(shapes.stand.stoplicht))),
      },
      resultaat: {
        meting: s.object({ kpi_id: s.uuid(), periode: s.string(), waarde: s.number(), toelichting: s.nullable(s.string()),
          overschreven: s.boolean("Er stond al een meting in deze periode.") }),
        kpi: shapes.kpi,
      },
    }),
  },
  {
    name: "taak_toevoegen",
    title: "Taak toevoegen",
    writes: true,
    section: "prioriteiten",
    module: "prioriteiten",
    rights: { lid: "alles", coach: "geen" },
    description: "Voegt één taak toe: onder een prioriteit, in een project, los, of als subtaak. Twee stappen.",
    parameters: {
      prioriteit_id: param.uuid("Niet samen met project_id."),
      project_id: param.uuid("Niet samen met prioriteit_id. Zonder beide is de taak los."),
      onder_taak_nummer: param.integer("Maakt een subtaak van dat taaknummer. Niet samen met prioriteit_id, project_id of herhalen.", { min: 1 }),
      omschrijving: param.string("Wie doet wat.", { required: true, max: 500 }),
      eigenaar_user_id: param.uuid("Leeg is niemand (een subtaak krijgt de eigenaar van de bovenliggende taak)."),
      deadline: param.string("jjjj-mm-dd; leeg is geen deadline.", DATE),
      herhalen: param.choice(values("herhalen"), "Leeg is eenmalig."),
      grootte: param.choice(values("grootte"), "Niet samen met inschatting_uren."),
      inschatting_uren: param.number("Inschatting in uren.", HOURS),
      week: param.string("Zet de taak in een week: <jjjj>-W<nn>, deze of volgende.", WEEK),
      tags: param.array("Tags voor de taak; een nieuwe tag bestaat daarna in de organisatie.", TAGS),
      brand_label: param.string("Naam van het brand label; leeg is hetzelfde als de prioriteit of het project."),
    },
    output: writes({
      voorstel: {
        omschrijving: veld(s.string()), hoort_bij: veld(shapes.onderdeel), onder_taak_nummer: veld(s.nullable(s.integer())),
        eigenaar: veld(s.nullable(shapes.persoon)), deadline: veld(s.nullable(s.date())), week: veld(s.nullable(shapes.week)),
        herhalen: veld(s.nullable(s.choice(values("herhalen")))), grootte: veld(s.nullable(s.choice(values("grootte")))),
        inschatting_uren: veld(s.nullable(s.number())), tags: veld(s.array(s.string())), brand_label: veld(s.nullable(s.string())),
      },
      resultaat: { taak: shapes.taak },
    }),
  },
  {
    name: "kpi_aanmaken",
    title: "KPI aanmaken",
    writes: true,
    section: "kpis",
    module: "kpis",
    rights: { lid: "geen", coach: "geen" },
    description: "Maakt één KPI aan; doel en proces stel je later in de app in. Twee stappen.",
    parameters: {
      naam: param.string("Naam op het scorebord.", { required: true, max: 200 }),
      eenheid: param.string("Eenheid."),
      eigenaar_user_id: param.uuid("Eén eigenaar per KPI.", { required: true }),
      meetsoort: param.choice(values("meetsoort"), "teller telt op binnen het kwartaal; stand is een momentopname.", { required: true }),
      cadans: param.choice(values("cadans"), "Hoe vaak er gemeten wordt.", { required: true }),
      lager_is_beter: param.flag("Lager is beter (verloop, kosten, doorlooptijd). Standaard nee."),
    },
    output: writes({
      voorstel: {
        naam: veld(s.string()), eenheid: veld(s.nullable(s.string())), eigenaar: veld(shapes.persoon),
        meetsoort: veld(s.choice(values("meetsoort"))), cadans: veld(s.choice(values("cadans"))), lager_is_beter: veld(s.boolean()),
      },
      resultaat: { kpi: shapes.kpi },
    }),
  },
  {
    name: "weektaak_toevoegen",
    title: "Weektaak toevoegen",
    writes: true,
    section: "weektaken",
    module: "weektaken",
    rights: { lid: "eigen", coach: "geen" },
    description: "Eén taak in de kolom nieuw van het weekbord. Voor een collega alleen als eigenaar, admin of MT. Twee stappen.",
    parameters: {
      titel: param.string("Titel.", { required: true, max: 200 }),
      week: param.string("ISO-week; leeg is deze week.", WEEK),
      voor_user_id: param.uuid("Leeg is jezelf."),
      prioriteit_id: param.uuid("De rock of OKR waar de taak bij hoort."),
    },
    output: writes({
      voorstel: {
        titel: veld(s.string()), week: veld(shapes.week), voor: veld(shapes.persoon),
        prioriteit: veld(s.nullable(s.object({ id: s.uuid(), titel: s.string() }))),
      },
      resultaat: { weektaak: shapes.weektaak },
    }),
  },
  {
    name: "dagprioriteiten_zetten",
    title: "Dagprioriteiten zetten",
    destructive: true,
    writes: true,
    section: "weektaken",
    module: "weektaken",
    rights: { lid: "eigen", coach: "geen" },
    description: "De prioriteiten van een dag, alleen voor jezelf, hoogstens drie; een niet gegeven prioriteit blijft. Twee stappen.",
    parameters: {
      datum: param.string("jjjj-mm-dd; leeg is vandaag.", DATE),
      prioriteit_1: param.string("Belangrijkste van de dag.", { max: 500 }),
      prioriteit_2: param.string("Tweede.", { max: 500 }),
      prioriteit_3: param.string("Derde.", { max: 500 }),
    },
    example: { prioriteit_1: "Offerte afmaken" },
    output: writes({
      voorstel: {
        datum: veld(s.date()),
        prioriteit_1: s.optional(veld(s.nullable(s.string()))), prioriteit_2: s.optional(veld(s.nullable(s.string()))),
        prioriteit_3: s.optional(veld(s.nullable(s.string()))),
      },
      resultaat: {
        dagprioriteiten: s.object({ datum: s.date(), prioriteiten: { ...s.array(s.nullable(s.string())), minItems: 3, maxItems: 3 } }),
      },
    }),
  },
  {
    name: "taak_bijwerken",
    title: "Taak bijwerken",
    destructive: true,
    writes: true,
    section: "prioriteiten",
    module: "prioriteiten",
    rights: { lid: "alles", coach: "geen" },
    description: "Werkt één taak bij; stuur alleen wat verandert. Verwijderen kan niet. Twee stappen.",
    parameters: {
      taak_id: param.uuid("Uit taken.", { required: true }),
      stand: param.choice(values("taak_stand"),
        "voltooid alleen wanneer het werk echt af is."),
      eigenaar_user_id: param.text("user_id uit team; null haalt de eigenaar weg.", UUID),
      deadline: param.text("Datum jjjj-mm-dd; null haalt hem weg.", DATE),
      herhalen: param.choice(["niet", ...values("herhalen")], "niet zet herhalen uit."),
      omschrijving: param.string("Nieuwe tekst.", { max: 500 }),
      week: param.text("<jjjj>-W<nn>, deze, volgende; null haalt de taak uit elke week. Een voorbije week kan niet.", WEEK),
      tags: param.array("Vervangt de tags; een lege lijst haalt ze allemaal weg.", TAGS),
      brand_label: param.text("null is hetzelfde als de prioriteit of het project.", { max: 200 }),
      grootte: param.choice(values("grootte"), "Niet samen met inschatting_uren."),
      inschatting_uren: param.text("Uren; null haalt de inschatting weg.", { numeric: true, ...HOURS }),
    },
    // The proposal shows the fields that were given, each as the task shows it.
    output: writes({
      voorstel: {
        taak: veld(s.object({ nummer: s.integer(), omschrijving: s.string() })),
        ...Object.fromEntries((["stand", "eigenaar", "deadline", "herhalen", "omschrijving", "week", "tags", "brand_label",
          "grootte", "inschatting_uren"] as const).map((k) => [k, s.optional(veld(shapes.taakVelden[k]))])),
      },
      resultaat: { taak: shapes.taak },
    }),
  },
  {
    name: "project_aanmaken",
    title: "Project aanmaken",
    writes: true,
    section: "prioriteiten",
    module: "projecten",
    rights: { lid: "alles", coach: "geen" },
    description: "Maakt één project aan (begin vandaag, einde optioneel), zichtbaar voor het hele team. " +
      "Twee stappen: eerst een voorstel met bevestigcode, dan dezelfde invoer met de code.",
    parameters: {
      titel: param.string("Naam van het project.", { required: true, max: 200 }),
      eigenaar_user_id: param.uuid("Eigenaar (uit team).", { required: true }),
      deadline: param.string("Einddatum jjjj-mm-dd; leeg is geen einddatum.", DATE),
      omschrijving: param.string("Omschrijving."),
    },
    output: writes({
      voorstel: {
        titel: veld(s.string()), eigenaar: veld(shapes.persoon), looptijd: veld(shapes.looptijd),
        omschrijving: veld(s.nullable(s.string())), besloten: veld(s.boolean()),
      },
      resultaat: { project: shapes.project },
    }),
  },
  {
    name: "reflecties",
    title: "Reflecties",
    writes: false,
    section: "reviews",
    module: "reviews",
    rights: { lid: "eigen", coach: "geen" },
    description: "Maand- of kwartaalreflecties per persoon: wat ging goed, wat kan beter, wat heb je geleerd, focus en " +
      "energie. Je eigen reflectie altijd; die van het team pas als iedereen heeft ingediend, jij ook " +
      "(team_zichtbaar; false betekent dat de ronde nog niet open is).",
    parameters: {
      soort: param.choice(values("reflectie_soort").filter((s) => s !== "jaar"), "Jaarreflecties staan alleen in de app.", { required: true }),
      periode: param.string("<jjjj>-<mm> (maand) of Q<n>-<jjjj> (kwartaal); leeg is de laatste periode met inhoud.",
        { pattern: /^(\d{4}-\d{2}|Q[1-4]-\d{4})$/, explanation: "moet een maand zijn als 2026-04 of een kwartaal als Q2-2026" }),
    },
    output: reads({
      soort: s.choice(values("reflectie_soort")),
      periode: s.nullable(s.string("<jjjj>-<mm> of Q<n>-<jjjj>; null wanneer er nog niets geschreven is.")),
      team_zichtbaar: s.boolean("Iedereen heeft ingediend, jij ook: de reflecties van het team zijn zichtbaar."),
      reflecties: s.array(s.object({
        persoon: shapes.persoon, goed: s.nullable(s.string()), beter: s.nullable(s.string()), geleerd: s.nullable(s.string()),
        focus: s.nullable(s.string()), energie: s.nullable(s.integer("1 tot 10.")), ingediend: s.boolean(),
        ingediend_op: s.nullable(s.time()),
      })),
    }),
    example: { soort: "maand" },
  },
  {
    name: "uren",
    title: "Uren",
    writes: false,
    section: "prioriteiten",
    module: "uren",
    rights: { lid: "eigen", coach: "alles" },
    description: "Geschreven uren per persoon over een periode, verdeeld over prioriteiten, projecten en losse taken. " +
      "Wie niet alle uren mag zien, krijgt alleen de eigen uren (alleen_eigen). Uren per losse taak zonder periode staan in taken.",
    parameters: {
      van: param.string("Eerste dag jjjj-mm-dd, telt mee; leeg is de eerste van deze maand.", DATE),
      tot: param.string("Laatste dag jjjj-mm-dd, telt mee; leeg is de laatste van deze maand.", DATE),
      user_id: param.uuid("Alleen die persoon (uit team); leeg is iedereen."),
    },
    output: reads({
      van: s.date(), tot: s.date(),
      alleen_eigen: s.boolean("Je ziet alleen je eigen uren."), toelichting: s.optional(s.string()),
      totaal: s.number(),
      personen: s.array(s.object({
        persoon: shapes.persoon, uren: s.number(),
        per_prioriteit: s.array(s.object({ id: s.uuid(), titel: s.string(), uren: s.number() })),
        per_project: s.array(s.oneOf(
          s.object({ id: s.uuid(), titel: s.string(), uren: s.number() }),
          s.object({ id: s.null(), titel: s.null(), uren: s.number(), besloten: s.constant(true, "Een besloten project waar je niet aan werkt.") }),
        )),
        losse_taken: s.number(),
      })),
    }),
  },
  {
    name: "waardering",
    title: "Waardering",
    writes: false,
    section: "financien",
    module: "financien",
    rights: { lid: "geen", coach: "geen" },
    description: "De bedrijfswaardering zoals gemeten: periode, omzet, genormaliseerde EBITDA, multiple en " +
      "aandelenwaarde, nieuwste eerst. Metingen zonder cijfers (een open uitnodiging aan de boekhouder) tellen niet mee.",
    parameters: { aantal: param.integer("Aantal metingen; standaard 8.", { min: 1, max: 100 }) },
    output: reads({
      waarderingen: s.array(s.object({
        periode: s.string(), omzet: s.nullable(s.number()), genormaliseerde_ebitda: s.nullable(s.number()),
        multiple: s.nullable(s.number()), aandelenwaarde: s.nullable(s.number()), gemeten_op: s.time(),
      }), "Nieuwste eerst."),
    }),
  },
  {
    name: "gesprekken",
    title: "Gesprekken",
    writes: false,
    section: "reviews",
    module: "reviews",
    rights: { lid: "eigen", coach: "geen" },
    description: "Beoordelingsgesprekken: wie, met wie, soort, datum, afgerond en eindoordeel (A-D); geen salaris en " +
      "geen vrije tekst. Met toegang tot Team het hele team, anders je eigen gesprekken en die jij leidt.",
    parameters: {
      jaar: param.integer("Alleen dat jaar; leeg is alle jaren.", { min: 1, max: 9999 }),
      alleen_open: param.flag("Alleen gesprekken die nog niet zijn afgerond."),
    },
    output: reads({
      hele_team: s.boolean("Je ziet de gesprekken van het hele team, niet alleen je eigen."),
      gesprekken: s.array(s.object({
        id: s.uuid(), wie: shapes.persoon, met: shapes.persoon, soort: s.string(), datum: s.date(), afgerond: s.boolean(),
        eindclassificatie: s.nullable(s.choice(["A", "B", "C", "D"])),
      })),
    }),
  },
  {
    name: "sessienotities",
    title: "Sessienotities",
    writes: false,
    section: null,
    module: "sessies",
    // eigen: established notes only; alles: concept notes too, which the interface shows only to the coach.
    rights: { eigenaar: "eigen", admin: "eigen", mt: "eigen", lid: "eigen", coach: "alles" },
    description: "Notities van coach- en MT-sessies, nieuwste eerst: datum, soort, samenvatting, highlights, " +
      "besluiten, learnings en actiepunten met eigenaar en deadline. Een concept ziet alleen de coach.",
    parameters: { aantal: param.integer("Hoeveel sessies terug; standaard 5.", { min: 1, max: 100 }) },
    output: reads({ sessienotities: s.array(shapes.sessienotitie, "Nieuwste eerst.") }),
  },
  {
    name: "sessienotitie_schrijven",
    title: "Sessienotitie schrijven",
    writes: true,
    section: null,
    module: "sessies",
    rights: { lid: "geen", coach: "alles" },
    description: "Legt een sessienotitie vast als concept; alleen de coach ziet haar tot die haar in de app vaststelt. " +
      "highlights, besluiten en learnings zijn lijsten van teksten; actiepunten een lijst van " +
      "{tekst, eigenaar_user_id, deadline}. Twee stappen.",
    parameters: {
      datum: param.string("Datum van de sessie, jjjj-mm-dd; niet in de toekomst.", { required: true, ...DATE }),
      titel: param.string("Korte titel.", { required: true, max: 200 }),
      soort: param.choice(values("sessienotitie_soort"), "Soort sessie.", { required: true }),
      samenvatting: param.string("Wat er besproken is.", { required: true }),
      highlights: param.array("Hoogtepunten, elk een tekst.", NOTE_TEXTS),
      besluiten: param.array("Besluiten, elk een tekst.", NOTE_TEXTS),
      learnings: param.array("Learnings, elk een tekst.", NOTE_TEXTS),
      actiepunten: param.array("Actiepunten: {tekst, eigenaar_user_id, deadline}; eigenaar en deadline leeg wanneer niet genoemd.", {
        maxItems: 50,
        elements: {
          tekst: param.string("Wat er moet gebeuren.", { required: true, max: 500 }),
          eigenaar_user_id: param.uuid("Wie het doet (uit team); leeg is niemand."),
          deadline: param.string("jjjj-mm-dd; leeg is geen deadline.", DATE),
        },
      }),
    },
    output: writes({
      voorstel: {
        datum: veld(s.date()), titel: veld(s.string()), soort: veld(s.choice(values("sessienotitie_soort"))),
        samenvatting: veld(s.string()), highlights: veld(s.array(s.string())), besluiten: veld(s.array(s.string())),
        learnings: veld(s.array(s.string())), actiepunten: veld(s.array(shapes.actiepunt)),
        status: veld(s.choice(values("sessienotitie_status"))),
      },
      resultaat: { sessienotitie: shapes.sessienotitie },
    }),
  },
  {
    name: "strategie_bijwerken",
    title: "Strategie bijwerken",
    writes: true,
    twoStep: false,
    section: null,
    module: "strategie",
    // The interface: only an owner, admin or MT member (a coach too is refused; docs/decisions.md).
    rights: { lid: "geen", coach: "geen" },
    description: "Stelt een wijziging van het strategiecanvas voor, met per veld de huidige en de nieuwe tekst. " +
      "Een eigenaar, admin of MT-lid keurt het voorstel goed of af in de app. Zonder bevestigcode.",
    parameters: {
      velden: param.object("Alleen de velden die veranderen, met de nieuwe tekst (leeg maakt een veld leeg); " +
        "een veld dat niet genoemd wordt blijft.", { required: true, keys: values("strategie_veld"), max: 5000 }),
    },
    output: writes({
      voorstel: null,
      resultaat: {
        voorstel: s.object({
          id: s.uuid(), status: s.choice(values("strategievoorstel_status")),
          velden: s.object(Object.fromEntries(values("strategie_veld").map((k) => [k, s.optional(veld(s.nullable(s.string())))])),
            "Alleen de velden die veranderen: de huidige en de nieuwe tekst."),
          ingediend_door: shapes.persoon, ingediend_op: s.time(),
        }, "Het opgeslagen voorstel; een eigenaar, admin of MT-lid keurt het goed of af in de app."),
      },
    }),
  },
];

/** Parameters every operation of its kind takes, added here so no entry can forget them. */
function withCommonParameters(o: Operation): Operation {
  if ((o.output.kind === "write") !== o.writes || (o.output.kind === "write" && (o.twoStep ?? true) && !o.output.voorstel)) {
    throw new Error(`registry: ${o.name} needs output: ${o.writes ? "writes({ voorstel, resultaat })" : "reads({...})"}`);
  }
  const parameters: Record<string, Param> = {};
  if (o.requiresOrg ?? true) parameters.org_id = param.uuid("Organisatie (uit organisaties, of die van de sleutel).", { required: true });
  Object.assign(parameters, o.parameters);
  if (o.writes && (o.twoStep ?? true)) {
    parameters.bevestigcode = param.string("Leeg bij de eerste aanroep; daarna de code uit het voorstel.");
  }
  return { ...o, parameters };
}

export const operations: readonly Operation[] = definitions.map(withCommonParameters);

/** The operations each door serves: organisaties only on the AI connection. */
export const restOperations: readonly Operation[] = operations.filter((o) => !o.onlyMcp);
export const mcpOperations: readonly Operation[] = operations;

/** The REST path of an operation: its name with dashes. */
export function restPath(o: Operation): string {
  return `/api/v1/${o.name.replaceAll("_", "-")}`;
}

export function httpMethod(o: Operation): "GET" | "POST" {
  return o.writes ? "POST" : "GET";
}
