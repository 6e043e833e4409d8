// The registry's operations of reviews and coaching (src/registry.ts): reflections, hours,
// appreciation, review conversations, session notes and the strategy canvas.
import { param } from "../parameters.ts";
import { values } from "../choices.ts";
import { s, shapes, veld, reads, writes } from "../schemas.ts";
import { DATE, NOTE_TEXTS, type Operation } from "./operation.ts";

export const reviewsOperations: Operation[] = [
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
        eindclassificatie: s.nullable(s.choice(values("eindclassificatie"))),
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
