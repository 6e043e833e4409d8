// The REST index (GET /api/v1) and the OpenAPI document, both generated from the registry so
// they always match what runs.
import { operaties, pad, methode, type Operatie } from "./registry.ts";
import type { Param } from "./parameters.ts";

function parameterLijst(o: Operatie) {
  return Object.entries(o.parameters).map(([naam, p]) => ({
    naam, type: p.type, verplicht: p.verplicht, toelichting: p.toelichting,
    ...(p.waarden ? { waarden: p.waarden } : {}),
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
    endpoints: operaties.map((o) => ({
      operatie: o.naam, methode: methode(o), pad: pad(o), schrijft: o.schrijft, sectie: o.sectie,
      beschrijving: o.beschrijving, parameters: parameterLijst(o),
    })),
  };
}

function schema(p: Param): Record<string, unknown> {
  switch (p.type) {
    case "uuid": return { type: "string", format: "uuid" };
    case "text": return { type: ["string", "null"] };
    case "integer": return { type: "integer" };
    case "number": return { type: "number" };
    case "keuze": return { type: "string", enum: p.waarden };
    case "vlag": return { type: "string", enum: ["ja", "nee"] };
    case "array": return { type: "array", items: {} };
    case "object": return { type: "object" };
    default: return { type: "string" };
  }
}

const foutSchema = {
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
  for (const o of operaties) {
    const params = Object.entries(o.parameters);
    const antwoorden = {
      "200": { description: "Gelukt", content: { "application/json": { schema: { type: "object" } } } },
      default: { description: "Fout", content: { "application/json": { schema: { $ref: "#/components/schemas/Fout" } } } },
    };
    paths[pad(o)] = {
      [methode(o).toLowerCase()]: {
        operationId: o.naam,
        summary: o.beschrijving,
        ...(o.sectie ? { tags: [o.sectie] } : {}),
        ...(o.schrijft
          ? { requestBody: { required: true, content: { "application/json": { schema: {
              type: "object", additionalProperties: false,
              required: params.filter(([, p]) => p.verplicht).map(([n]) => n),
              properties: Object.fromEntries(params.map(([n, p]) => [n, { ...schema(p), description: p.toelichting }])),
            } } } } }
          : { parameters: params.map(([n, p]) => ({
              name: n, in: "query", required: p.verplicht, description: p.toelichting, schema: schema(p),
            })) }),
        responses: antwoorden,
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
      schemas: { Fout: foutSchema },
    },
    paths,
  };
}
