// The REST index (GET /api/v1) and the OpenAPI document, both generated from the registry so
// they always match what runs.
import { restOperations as operations, restPath, httpMethod, type Operation } from "./registry.ts";
import { jsonSchema, type Param, type ParamType } from "./parameters.ts";
import { errorCodes } from "./error-codes.ts";
import { foutSchema, refusalsByStatus, render, successSchemas, type Schema } from "./schemas.ts";

// The index's keys (naam, verplicht, toelichting, ...) are the API's and stay as clients know them.
interface IndexParameter {
  naam: string; type: ParamType; verplicht: boolean; toelichting: string;
  waarden?: readonly string[]; elementen?: IndexParameter[];
}

function parameterList(parameters: Record<string, Param>): IndexParameter[] {
  return Object.entries(parameters).map(([name, p]) => ({
    naam: name, type: p.type, verplicht: p.required, toelichting: p.description,
    ...(p.values ? { waarden: p.values } : {}),
    // A list of objects names the keys of its elements.
    ...(p.elements ? { elementen: parameterList(p.elements) } : {}),
  }));
}

export function index() {
  return {
    naam: "Koers REST API",
    versie: "v1",
    authenticatie: "Authorization: Bearer <API-sleutel>. Een sleutel hoort bij één organisatie en werkt namens wie hem maakte.",
    schrijven: "Schrijfoperaties gaan in twee stappen: de eerste aanroep zonder bevestigcode geeft een voorstel " +
      "en een bevestigcode; pas de tweede aanroep met dezelfde invoer en die code schrijft.",
    openapi: "/api/v1/openapi.json",
    documentatie: "/api/v1/docs",
    endpoints: operations.map((o) => ({
      operatie: o.name, methode: httpMethod(o), pad: restPath(o), schrijft: o.writes, sectie: o.section,
      beschrijving: o.description, parameters: parameterList(o.parameters),
    })),
  };
}

/** Flags: ja/nee, and true/false too; in a JSON body also a JSON boolean. */
const FLAG_TEXT = { type: "string", enum: ["ja", "nee", "true", "false"] };

/** A parameter's schema in a query string (text) or in a body (JSON, or a form with the same meaning). */
function inputSchema(p: Param, where: "query" | "body"): Record<string, unknown> {
  const base = jsonSchema(p);
  if (p.type === "vlag") {
    return where === "query" ? { ...base, ...FLAG_TEXT } : { ...withoutType(base), anyOf: [FLAG_TEXT, { type: "boolean" }] };
  }
  return base;
}

function withoutType(schema: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, enum: _enum, ...rest } = schema;
  return rest;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Ongeldige invoer", 401: "Geen geldige sleutel", 403: "Niet toegestaan", 413: "Body te groot",
  415: "Formaat niet ondersteund", 429: "Te veel verzoeken", 500: "Interne fout",
};

/** The answers of an operation: its successes under 200, each refusal status with its codes. */
function responses(o: Operation, components: Record<string, Schema>) {
  const json = (schema: Schema) => ({ "application/json": { schema: render(schema, { components }) } });
  const successes = successSchemas(o);
  const out: Record<string, unknown> = {
    "200": {
      description: successes.map((a) => `${a.name}: ${a.description}`).join(" "),
      content: json(successes.length === 1 ? successes[0]!.schema : { oneOf: successes.map((a) => a.schema) }),
    },
  };
  for (const [status, codes] of refusalsByStatus(o)) {
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? "Fout"}: ${codes.map((c) => `${c} (${errorCodes[c].when})`).join("; ")}`,
      content: json(foutSchema(codes)),
    };
  }
  return out;
}

export const TWO_STEP_RULE = "Schrijfoperaties gaan in twee stappen. De eerste aanroep, zonder bevestigcode, verandert niets " +
  "en geeft een voorstel (per veld wat nu staat en wat het wordt) met een bevestigcode en geldig_tot. De tweede aanroep, " +
  "met precies dezelfde invoer plus die bevestigcode, voert het uit en geeft {\"uitgevoerd\": true, ...}. Een code geldt " +
  "15 minuten, hoort bij de sleutel en de invoer, en dezelfde code nog eens geeft het eerste resultaat terug.";

export const SPELLINGS = "Vlaggen: ja of nee, ook true of false. Lijsten: herhaalde sleutels (tags=a&tags=b), " +
  "tags[]=a&tags[]=b, of een lijst met komma's (tags=a,b); in JSON een lijst. Een lege waarde is niet gegeven. " +
  "Een POST-body is application/json of application/x-www-form-urlencoded.";

export function openapi() {
  const components: Record<string, Schema> = {};
  const paths: Record<string, unknown> = {};
  for (const o of operations) {
    const params = Object.entries(o.parameters);
    const bodySchema = {
      type: "object", additionalProperties: false,
      required: params.filter(([, p]) => p.required).map(([n]) => n),
      properties: Object.fromEntries(params.map(([n, p]) => [n, inputSchema(p, "body")])),
    };
    paths[restPath(o)] = {
      [httpMethod(o).toLowerCase()]: {
        operationId: o.name,
        summary: o.name.replaceAll("_", " "),
        description: o.description + (o.writes && (o.twoStep ?? true) ? `\n\n${TWO_STEP_RULE}` : ""),
        ...(o.section ? { tags: [o.section] } : {}),
        ...(o.writes
          // A form body means the same as JSON (lists repeated or comma-separated, flags ja/nee).
          ? { requestBody: { required: true, content: { "application/json": { schema: bodySchema },
              "application/x-www-form-urlencoded": { schema: bodySchema } } } }
          : { parameters: params.map(([n, p]) => ({
              name: n, in: "query", required: p.required, description: p.description, schema: inputSchema(p, "query"),
              ...(p.type === "array" ? { style: "form", explode: true } : {}),
            })) }),
        responses: responses(o, components),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Koers REST API", version: "v1",
      description: `Authorization: Bearer <API-sleutel>. ${TWO_STEP_RULE} ${SPELLINGS} Een mensvriendelijke versie: /api/v1/docs.`,
    },
    servers: [{ url: "/" }],
    security: [{ sleutel: [] }],
    components: {
      securitySchemes: { sleutel: { type: "http", scheme: "bearer", description: "koers_live_…" } },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
    paths,
  };
}
