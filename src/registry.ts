// The one registry of operations. Each entry names an operation as the interface does; the
// REST routes, the REST index, the OpenAPI document (and the MCP tools) are generated from it.
// The SQL function api.<name> does the work; app.operaties holds the same kind and section
// for the checks in the database, and start-up refuses to serve when the two disagree.
import { param, type Param } from "./parameters.ts";

export type Section = "team" | "prioriteiten" | "kpis" | "weektaken" | "reviews" | "financien";

export interface Operation {
  name: string;
  writes: boolean;
  section: Section | null;
  description: string;
  parameters: Record<string, Param>;
  /** False only for wie_ben_ik: every other operation takes org_id. */
  requiresOrg?: boolean;
  /** False for strategie_bijwerken, which stores a proposal instead. */
  twoStep?: boolean;
}

const DATE = { pattern: /^\d{4}-\d{2}-\d{2}$/, explanation: "moet een datum zijn als jjjj-mm-dd" };

const WEEK = { pattern: /^(\d{4}-W\d{2}|deze|volgende)$/, explanation: "moet een ISO-week zijn als 2026-W07, of deze of volgende" };
const QUARTER = { pattern: /^Q[1-4]-\d{4}$/, explanation: "moet een kwartaal zijn als Q2-2026" };
const RECURRENCES = ["dag", "week", "maand", "kwartaal", "jaar"] as const;
const SIZES = ["klein", "middel", "groot"] as const;

const definitions: Operation[] = [
  {
    name: "wie_ben_ik",
    writes: false,
    section: null,
    requiresOrg: false,
    description: "Controleert een API-sleutel: de organisatie en de persoon namens wie de sleutel werkt.",
    parameters: {},
  },
  {
    name: "team",
    writes: false,
    section: "team",
    description: "Leden met rol, functietitel en team; teams met hun leider; bedrijfsprocessen met " +
      "eindverantwoordelijke en rollen (bezet of open); open rollen; leden zonder rol.",
    parameters: {},
  },
  {
    name: "prioriteiten",
    writes: false,
    section: "prioriteiten",
    description: "Rocks en OKR's van een kwartaal in één lijst, met eigenaar, voortgang, verstreken tijd, stand " +
      "(op koers, aandacht nodig, loopt achter, nog niet gestart, geen taken) en deadline.",
    parameters: {
      kwartaal: param.string("Q<n>-<jjjj>; leeg is het lopende kwartaal.", QUARTER),
      alleen_aandacht: param.flag("Alleen prioriteiten die achterlopen, aandacht nodig hebben of over hun deadline zijn."),
      team: param.string("Teamnaam of id (uit team); geen geeft de bedrijfsbrede."),
    },
  },
  {
    name: "kpi_scorebord",
    writes: false,
    section: "kpis",
    description: "Het KPI-scorebord van een kwartaal: kwartaaldoel, huidige stand, lijn en stoplicht " +
      "(op koers, attentie, achter) per KPI.",
    parameters: {
      kwartaal: param.string("Q<n>-<jjjj>; leeg is het lopende kwartaal.", QUARTER),
      team: param.string("Teamnaam of id; geen geeft de bedrijfsbrede KPI's."),
    },
  },
  {
    name: "weektaken",
    writes: false,
    section: "weektaken",
    description: "Het weekbord per persoon voor één ISO-week: titel, status, klaar en de rock waar een taak bij hoort.",
    parameters: { week: param.string("ISO-week <jjjj>-W<nn>, deze of volgende; leeg is deze week.", WEEK) },
  },
  {
    name: "taken",
    writes: false,
    section: "prioriteiten",
    description: "Taken met nummer, omschrijving, waar ze bij horen, eigenaar, stand, deadline, week, tags en uren. " +
      "Hoogstens 200; afgekapt is true wanneer er meer zijn.",
    parameters: {
      soort: param.choice(["prioriteit", "project", "los"], "Leeg is alles."),
      hoort_bij_id: param.uuid("Eén prioriteit of project."),
      eigenaar_user_id: param.uuid("Eigenaar."),
      ook_afgesloten: param.flag("Ook klare of vervallen taken. Standaard alleen open taken."),
      week: param.string("<jjjj>-W<nn>, deze of volgende.", WEEK),
      tags: param.array("Alleen taken met al deze tags (hoofdletters tellen niet)."),
      nummer: param.integer("Geeft die ene taak, ook als die klaar of vervallen is; andere filters tellen dan niet.", { min: 1 }),
    },
  },
  {
    name: "projecten",
    writes: false,
    section: "prioriteiten",
    description: "Lopende projecten die je in de app ziet: titel, eigenaar, looptijd, besloten, open taken, bestede uren.",
    parameters: {},
  },
  {
    name: "taak_geschiedenis",
    writes: false,
    section: "prioriteiten",
    description: "Wijzigingen van een taak, nieuwste eerst: soort, wie (leeg is automatisch), wanneer, oude en nieuwe waarde.",
    parameters: { nummer: param.integer("Taaknummer.", { required: true, min: 1 }) },
  },
  {
    name: "prioriteit_aanmaken",
    writes: true,
    section: "prioriteiten",
    description: "Maakt één rock of OKR aan (advies: drie tot vijf per persoon per kwartaal). Een OKR krijgt zijn " +
      "kernresultaten in de app. Twee stappen.",
    parameters: {
      titel: param.string("Kort, geformuleerd als resultaat.", { required: true, max: 200 }),
      soort: param.choice(["rock", "okr"], "Geen standaard.", { required: true }),
      eigenaar_user_id: param.uuid("Uit team.", { required: true }),
      kwartaal: param.string("Q<n>-<jjjj>; leeg is het lopende kwartaal.", QUARTER),
      deadline: param.string("jjjj-mm-dd binnen het kwartaal; leeg is het einde van het kwartaal.", DATE),
      omschrijving: param.string("Waarom, en wanneer het af is."),
    },
  },
  {
    name: "kpi_meting_invoeren",
    writes: true,
    section: "kpis",
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
  },
  {
    name: "taak_toevoegen",
    writes: true,
    section: "prioriteiten",
    description: "Voegt één taak toe: onder een prioriteit, in een project, los, of als subtaak. Twee stappen.",
    parameters: {
      prioriteit_id: param.uuid("Niet samen met project_id."),
      project_id: param.uuid("Niet samen met prioriteit_id. Zonder beide is de taak los."),
      onder_taak_nummer: param.integer("Maakt een subtaak van dat taaknummer. Niet samen met prioriteit_id, project_id of herhalen.", { min: 1 }),
      omschrijving: param.string("Wie doet wat.", { required: true, max: 500 }),
      eigenaar_user_id: param.uuid("Leeg is niemand (een subtaak krijgt de eigenaar van de bovenliggende taak)."),
      deadline: param.string("jjjj-mm-dd; leeg is geen deadline.", DATE),
      herhalen: param.choice(RECURRENCES, "Leeg is eenmalig."),
      grootte: param.choice(SIZES, "Niet samen met inschatting_uren."),
      inschatting_uren: param.number("Inschatting in uren."),
      week: param.string("Zet de taak in een week: <jjjj>-W<nn>, deze of volgende.", WEEK),
      tags: param.array("Tags voor de taak; een nieuwe tag bestaat daarna in de organisatie."),
      brand_label: param.string("Naam van het brand label; leeg is hetzelfde als de prioriteit of het project."),
    },
  },
  {
    name: "kpi_aanmaken",
    writes: true,
    section: "kpis",
    description: "Maakt één KPI aan; doel en proces stel je later in de app in. Twee stappen.",
    parameters: {
      naam: param.string("Naam op het scorebord.", { required: true, max: 200 }),
      eenheid: param.string("Eenheid."),
      eigenaar_user_id: param.uuid("Eén eigenaar per KPI.", { required: true }),
      meetsoort: param.choice(["teller", "stand"], "teller telt op binnen het kwartaal; stand is een momentopname.", { required: true }),
      cadans: param.choice(["week", "month", "quarter"], "Hoe vaak er gemeten wordt.", { required: true }),
      lager_is_beter: param.flag("Lager is beter (verloop, kosten, doorlooptijd). Standaard nee."),
    },
  },
  {
    name: "weektaak_toevoegen",
    writes: true,
    section: "weektaken",
    description: "Eén taak in de kolom nieuw van het weekbord. Voor een collega alleen als eigenaar, admin of MT. Twee stappen.",
    parameters: {
      titel: param.string("Titel.", { required: true, max: 200 }),
      week: param.string("ISO-week; leeg is deze week.", WEEK),
      voor_user_id: param.uuid("Leeg is jezelf."),
      prioriteit_id: param.uuid("De rock of OKR waar de taak bij hoort."),
    },
  },
  {
    name: "dagprioriteiten_zetten",
    writes: true,
    section: "weektaken",
    description: "De prioriteiten van een dag, alleen voor jezelf, hoogstens drie; een niet gegeven prioriteit blijft. Twee stappen.",
    parameters: {
      datum: param.string("jjjj-mm-dd; leeg is vandaag.", DATE),
      prioriteit_1: param.string("Belangrijkste van de dag.", { max: 500 }),
      prioriteit_2: param.string("Tweede.", { max: 500 }),
      prioriteit_3: param.string("Derde.", { max: 500 }),
    },
  },
  {
    name: "taak_bijwerken",
    writes: true,
    section: "prioriteiten",
    description: "Werkt één taak bij; stuur alleen wat verandert. Verwijderen kan niet. Twee stappen.",
    parameters: {
      taak_id: param.uuid("Uit taken.", { required: true }),
      stand: param.choice(["open", "in_uitvoering", "wacht_op_feedback", "voltooid", "vervallen"],
        "voltooid alleen wanneer het werk echt af is."),
      eigenaar_user_id: param.text("null haalt de eigenaar weg."),
      deadline: param.text("Datum jjjj-mm-dd; null haalt hem weg."),
      herhalen: param.choice(["niet", ...RECURRENCES], "niet zet herhalen uit."),
      omschrijving: param.string("Nieuwe tekst.", { max: 500 }),
      week: param.text("<jjjj>-W<nn>, deze, volgende; null haalt de taak uit elke week. Een voorbije week kan niet."),
      tags: param.array("Vervangt de tags; een lege lijst haalt ze allemaal weg."),
      brand_label: param.text("null is hetzelfde als de prioriteit of het project."),
      grootte: param.choice(SIZES, "Niet samen met inschatting_uren."),
      inschatting_uren: param.text("Uren; null haalt de inschatting weg.", { numeric: true }),
    },
  },
  {
    name: "project_aanmaken",
    writes: true,
    section: "prioriteiten",
    description: "Maakt één project aan (begin vandaag, einde optioneel), zichtbaar voor het hele team. " +
      "Twee stappen: eerst een voorstel met bevestigcode, dan dezelfde invoer met de code.",
    parameters: {
      titel: param.string("Naam van het project.", { required: true, max: 200 }),
      eigenaar_user_id: param.uuid("Eigenaar (uit team).", { required: true }),
      deadline: param.string("Einddatum jjjj-mm-dd; leeg is geen einddatum.", DATE),
      omschrijving: param.string("Omschrijving."),
    },
  },
];

/** Parameters every operation of its kind takes, added here so no entry can forget them. */
function withCommonParameters(o: Operation): Operation {
  const parameters: Record<string, Param> = {};
  if (o.requiresOrg ?? true) parameters.org_id = param.uuid("Organisatie (uit organisaties, of die van de sleutel).", { required: true });
  Object.assign(parameters, o.parameters);
  if (o.writes && (o.twoStep ?? true)) {
    parameters.bevestigcode = param.string("Leeg bij de eerste aanroep; daarna de code uit het voorstel.");
  }
  return { ...o, parameters };
}

export const operations: readonly Operation[] = definitions.map(withCommonParameters);

/** The REST path of an operation: its name with dashes. */
export function restPath(o: Operation): string {
  return `/api/v1/${o.name.replaceAll("_", "-")}`;
}

export function httpMethod(o: Operation): "GET" | "POST" {
  return o.writes ? "POST" : "GET";
}
