// The MCP tools, generated from the registry: one per operation, named as the interface names
// it, with the same parameter rules as REST (jsonSchema), a description written for an
// assistant and annotations. The tools declare schemas; they do not enforce them: the database
// checks every call's input for both doors and answers with the same fout.
import { mcpOperations, type Operation } from "../registry.ts";
import { jsonSchema } from "../parameters.ts";

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required: string[]; additionalProperties: false };
  outputSchema: Record<string, unknown>;
  annotations: {
    title: string; readOnlyHint: boolean; openWorldHint: false;
    destructiveHint?: boolean; idempotentHint?: boolean;
  };
}

/**
 * The output schema of an operation. The registry has no output schemas yet (issue 8 adds them
 * for OpenAPI); until then every answer is declared as an object, which every answer and every
 * {"fout": ...} is. Replace this one function when the registry has them.
 */
export function outputSchema(_o: Operation): Record<string, unknown> {
  return { type: "object" };
}

export function title(o: Operation): string {
  return o.title ?? o.name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

/** What an assistant needs besides what the operation does: when, with what, and how to write. */
function description(o: Operation): string {
  const parts = [o.description];
  if (o.onlyMcp) {
    parts.push("Roep deze tool als eerste aan: de org_id voor elke andere tool komt hieruit. " +
      "Staat een organisatie er niet in, dan kan de assistent er niet bij.");
  } else if (o.requiresOrg ?? true) {
    parts.push("org_id: het id van de organisatie uit de tool organisaties (roep die eerst aan als je het niet weet).");
  }
  if (!o.writes) {
    parts.push("Leest alleen; verandert niets. Gebruik de cijfers, standen en stoplichten zoals ze komen: " +
      "ze zijn dezelfde als in de app; reken ze niet zelf na.");
  } else if (o.twoStep ?? true) {
    parts.push("Schrijft in twee stappen. Eerste aanroep zonder bevestigcode: er verandert niets; het antwoord is een " +
      "voorstel (per veld wat nu staat en wat het wordt) met een bevestigcode. Laat dat voorstel aan de gebruiker " +
      "zien en vraag of het zo mag. Doe de tweede aanroep, met precies dezelfde invoer plus die bevestigcode, " +
      "alleen na een uitdrukkelijk ja van de gebruiker in dit gesprek; anders niet. Een code is 15 minuten geldig; " +
      "dezelfde code nog eens geeft het eerste resultaat terug en schrijft niet opnieuw.");
  } else {
    parts.push("Slaat een voorstel op dat een eigenaar, admin of MT-lid in de app goedkeurt of afwijst. " +
      "Vraag de gebruiker eerst of het zo mag.");
  }
  parts.push("Een weigering is een resultaat met fout (code, bericht, parameter): lees het bericht en pas de invoer aan " +
    "of leg het de gebruiker uit.");
  return parts.join("\n\n");
}

export function toolDefinition(o: Operation): ToolDefinition {
  const params = Object.entries(o.parameters);
  const t = title(o);
  return {
    name: o.name,
    title: t,
    description: description(o),
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(params.map(([n, p]) => [n, jsonSchema(p)])),
      required: params.filter(([, p]) => p.required).map(([n]) => n),
      additionalProperties: false,
    },
    outputSchema: outputSchema(o),
    annotations: o.writes
      ? { title: t, readOnlyHint: false, destructiveHint: o.destructive ?? false, idempotentHint: o.twoStep ?? true, openWorldHint: false }
      : { title: t, readOnlyHint: true, openWorldHint: false },
  };
}

export const tools: readonly ToolDefinition[] = mcpOperations.map(toolDefinition);

/** What the server tells an assistant when it connects. */
export const instructions =
  "Koers houdt de doelen, KPI's, taken en het team van een bedrijf bij (EOS, Scaling Up). Je werkt namens de " +
  "gebruiker die zich heeft aangemeld, met precies diens rechten. Begin met organisaties: elke andere tool vraagt " +
  "een org_id. Lezen verandert niets. Schrijven gaat in twee stappen: eerst een voorstel met bevestigcode, dat je " +
  "aan de gebruiker laat zien; pas na een uitdrukkelijk ja bevestig je met dezelfde invoer en die code.";
