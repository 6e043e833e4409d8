// The write operations of the registry (src/registry.ts) for priorities, KPIs, tasks, the weekly
// board, daily priorities and projects.
import { param } from "../parameters.ts";
import { values } from "../choices.ts";
import { s, shapes, veld, writes } from "../schemas.ts";
import { DATE, UUID, TAGS, HOURS, WEEK, QUARTER, type Operation } from "./operation.ts";

export const writesOperations: Operation[] = [
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
];
