// The REST index (GET /api/v1) and the OpenAPI document, both generated from the registry so
// they always match what runs.
import { restOperations as operations, restPath, httpMethod, type Operation } from "./registry.ts";
import { jsonSchema, type Param, type ParamType } from "./parameters.ts";

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
    endpoints: operations.map((o) => ({
      operatie: o.name, methode: httpMethod(o), pad: restPath(o), schrijft: o.writes, sectie: o.section,
      beschrijving: o.description, parameters: parameterList(o.parameters),
    })),
  };
}

const errorSchema = {
  type: "object",
  required: ["fout"],
  properties: {
    fout: {
      type: "object", required: ["code", "bericht"],
      properties: { code: { type: "string" }, bericht: { type: "string" }, parameter: { type: "string" } },
    },
  },
};

export function openapi() {
  const paths: Record<string, unknown> = {};
  for (const o of operations) {
    const params = Object.entries(o.parameters);
    const responses = {
      "200": { description: "Gelukt", content: { "application/json": { schema: { type: "object" } } } },
      default: { description: "Fout", content: { "application/json": { schema: { $ref: "#/components/schemas/Fout" } } } },
    };
    const bodySchema = {
      type: "object", additionalProperties: false,
      required: params.filter(([, p]) => p.required).map(([n]) => n),
      properties: Object.fromEntries(params.map(([n, p]) => [n, jsonSchema(p)])),
    };
    paths[restPath(o)] = {
      [httpMethod(o).toLowerCase()]: {
        operationId: o.name,
        summary: o.description,
        ...(o.section ? { tags: [o.section] } : {}),
        ...(o.writes
          // A form body means the same as JSON (lists repeated or comma-separated, flags ja/nee).
          ? { requestBody: { required: true, content: { "application/json": { schema: bodySchema },
              "application/x-www-form-urlencoded": { schema: bodySchema } } } }
          : { parameters: params.map(([n, p]) => ({
              name: n, in: "query", required: p.required, description: p.description, schema: jsonSchema(p),
            })) }),
        responses,
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Koers REST API", version: "v1" },
    servers: [{ url: "/" }],
    security: [{ sleutel: [] }],
    components: {
      securitySchemes: { sleutel: { type: "http", scheme: "bearer", description: "koers_live_…" } },
      schemas: { Fout: errorSchema },
    },
    paths,
  };
}
