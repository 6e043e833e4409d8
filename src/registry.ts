// The one list of operations. Each entry names an operation as the interface does, with its
// kind, section, module, the rights of each role (decisions.md) and its parameters. The REST
// routes, the REST index, the OpenAPI document and the MCP tools are generated from it, and
// migrating writes it to the database (app.operaties, app.rol_rechten, app.operatie_parameters),
// where api.<name> does the work and every call is checked against it. The entries are in
// src/registry/ by topic (reads, writes, reviews and coaching), in the order the doors list them.
import { param, type Param } from "./parameters.ts";
import type { Operation } from "./registry/operation.ts";
import { readsOperations } from "./registry/reads.ts";
import { writesOperations } from "./registry/writes.ts";
import { reviewsOperations } from "./registry/reviews.ts";

export type { Section, Right } from "./choices.ts";
export type { Operation } from "./registry/operation.ts";

const definitions: Operation[] = [...readsOperations, ...writesOperations, ...reviewsOperations];

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
