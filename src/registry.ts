// The one registry of operations. Each entry names an operation as the interface does; the
// REST routes, the REST index, the OpenAPI document (and the MCP tools) are generated from it.
// The SQL function api.<naam> does the work; app.operaties holds the same kind and section
// for the checks in the database, and start-up refuses to serve when the two disagree.
import { param, type Param } from "./parameters.ts";

export type Sectie = "team" | "prioriteiten" | "kpis" | "weektaken" | "reviews" | "financien";

export interface Operatie {
  naam: string;
  schrijft: boolean;
  sectie: Sectie | null;
  beschrijving: string;
  parameters: Record<string, Param>;
  /** False only for wie_ben_ik: every other operation takes org_id. */
  vereistOrg?: boolean;
  /** False for strategie_bijwerken, which stores a proposal instead. */
  tweeStappen?: boolean;
}

const datum = { patroon: /^\d{4}-\d{2}-\d{2}$/, uitleg: "moet een datum zijn als jjjj-mm-dd" };

const lijst: Operatie[] = [
  {
    naam: "wie_ben_ik",
    schrijft: false,
    sectie: null,
    vereistOrg: false,
    beschrijving: "Controleert een API-sleutel: de organisatie en de persoon namens wie de sleutel werkt.",
    parameters: {},
  },
  {
    naam: "team",
    schrijft: false,
    sectie: "team",
    beschrijving: "Leden met rol, functietitel en team; teams met hun leider; bedrijfsprocessen met " +
      "eindverantwoordelijke en rollen (bezet of open); open rollen; leden zonder rol.",
    parameters: {},
  },
  {
    naam: "project_aanmaken",
    schrijft: true,
    sectie: "prioriteiten",
    beschrijving: "Maakt één project aan (begin vandaag, einde optioneel), zichtbaar voor het hele team. " +
      "Twee stappen: eerst een voorstel met bevestigcode, dan dezelfde invoer met de code.",
    parameters: {
      titel: param.string("Naam van het project.", { verplicht: true, max: 200 }),
      eigenaar_user_id: param.uuid("Eigenaar (uit team).", { verplicht: true }),
      deadline: param.string("Einddatum jjjj-mm-dd; leeg is geen einddatum.", datum),
      omschrijving: param.string("Omschrijving."),
    },
  },
];

/** Parameters every operation of its kind takes, added here so no entry can forget them. */
function volledig(o: Operatie): Operatie {
  const parameters: Record<string, Param> = {};
  if (o.vereistOrg ?? true) parameters.org_id = param.uuid("Organisatie (uit organisaties, of die van de sleutel).", { verplicht: true });
  Object.assign(parameters, o.parameters);
  if (o.schrijft && (o.tweeStappen ?? true)) {
    parameters.bevestigcode = param.string("Leeg bij de eerste aanroep; daarna de code uit het voorstel.");
  }
  return { ...o, parameters };
}

export const operaties: readonly Operatie[] = lijst.map(volledig);

export function pad(o: Operatie): string {
  return `/api/v1/${o.naam.replaceAll("_", "-")}`;
}

export function methode(o: Operatie): "GET" | "POST" {
  return o.schrijft ? "POST" : "GET";
}
