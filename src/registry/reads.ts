// The read operations of the registry (src/registry.ts): who am I, the organisations, team,
// priorities, KPIs, weekly board, tasks, projects, task history and search.
import { param } from "../parameters.ts";
import { values } from "../choices.ts";
import { s, shapes, reads } from "../schemas.ts";
import { DATE, TAGS, WEEK, QUARTER, type Operation } from "./operation.ts";

export const readsOperations: Operation[] = [
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
];
