// The parameter types of the interface (uuid, string, text, integer, number, keuze, vlag,
// array, object) and the rules of each parameter: required, pattern, length, range, allowed
// values. This is the one place a rule is written. The database checks every call against it
// (migrating writes it to app.operatie_parameters; app_hidden.invoer_controleren applies it and
// normalises query-string text to typed JSON, so a confirmation code binds to the meaning of the
// input, not its spelling); the index, OpenAPI and the MCP tools describe it as JSON Schema.

/** The type names clients see in the index; they follow the interface's spelling. */
import type { ParamType } from "./choices.ts";
export type { ParamType };

export interface Param {
  type: ParamType;
  required: boolean;
  description: string;
  /** keuze: the allowed values; array: allowed element values; object: allowed keys. */
  values?: readonly string[];
  /** string and text: a regular expression the value matches, valid in JavaScript and PostgreSQL. */
  pattern?: string;
  /** What the pattern asks for, completing "<name> ..." in a refusal. */
  explanation?: string;
  /** string, text, array elements, object values: the longest text. */
  maxLength?: number;
  /** integer and number: the range. */
  min?: number;
  max?: number;
  /** array: the most elements. */
  maxItems?: number;
  /** text: holds a number (or null). */
  numeric?: boolean;
  /** array: each element is an object with exactly these keys (each its own rule), not a text. */
  elements?: Record<string, Param>;
}

interface Options { required?: boolean }
interface Shape { pattern?: RegExp; explanation?: string; max?: number }

const LONGEST_TEXT = 10_000;
const LARGEST_NUMBER = 1e15;

function make(type: ParamType, description: string, o: Options, extra: Partial<Param> = {}): Param {
  return { type, required: o.required ?? false, description, ...extra };
}

function shape(s: Shape): Partial<Param> {
  return { maxLength: s.max ?? LONGEST_TEXT,
    ...(s.pattern ? { pattern: s.pattern.source, explanation: s.explanation ?? "heeft niet de juiste vorm" } : {}) };
}

export const param = {
  uuid: (description: string, o: Options = {}) => make("uuid", description, o),
  /** Text; empty or only spaces counts as not given. */
  string: (description: string, o: Options & Shape = {}) => make("string", description, o, shape(o)),
  /** Text, or null to clear the value; with numeric, a number (or numeric text) or null. */
  text: (description: string, o: Options & Shape & { numeric?: boolean; min?: number } = {}) =>
    make("text", description, o, o.numeric
      ? { numeric: true, ...(o.min !== undefined ? { min: o.min } : {}), ...(o.max !== undefined ? { max: o.max } : {}) }
      : shape(o)),
  integer: (description: string, o: Options & { min?: number; max?: number } = {}) =>
    make("integer", description, o, { min: o.min ?? -2147483648, max: o.max ?? 2147483647 }),
  /** A number; without a range of its own, within ±10^15 (what fits 15 digits, as numeric text may have). */
  number: (description: string, o: Options & { min?: number; max?: number } = {}) =>
    make("number", description, o, { min: o.min ?? -LARGEST_NUMBER, max: o.max ?? LARGEST_NUMBER }),
  /** One of a fixed list of values (type keuze in the index). */
  choice: (values: readonly string[], description: string, o: Options = {}) => make("keuze", description, o, { values }),
  /** ja or nee; true and false are accepted too (type vlag in the index). */
  flag: (description: string, o: Options = {}) => make("vlag", description, o, { values: ["ja", "nee"] }),
  /**
   * A list of texts; in a query string repeated (tags=a&tags=b) or comma-separated. With
   * elements, a list of objects with only those keys, each checked by its own rule (a body only).
   */
  array: (description: string,
    o: Options & { maxItems?: number; itemMax?: number; values?: readonly string[]; elements?: Record<string, Param> } = {}) =>
    make("array", description, o, { maxItems: o.maxItems ?? 100,
      ...(o.elements ? { elements: o.elements } : { maxLength: o.itemMax ?? LONGEST_TEXT }),
      ...(o.values ? { values: o.values } : {}) }),
  /** An object of texts; with keys, only those keys. */
  object: (description: string, o: Options & { keys?: readonly string[]; max?: number } = {}) =>
    make("object", description, o, { maxLength: o.max ?? LONGEST_TEXT, ...(o.keys ? { values: o.keys } : {}) }),
};

/** The body of a refusal, under the key `fout`; its keys are the API's. */
export interface ErrorBody { code: string; bericht: string; parameter?: string }

/** A parameter as JSON Schema (OpenAPI 3.1 and MCP tool input schemas). */
export function jsonSchema(p: Param): Record<string, unknown> {
  const text = { ...(p.maxLength ? { maxLength: p.maxLength } : {}), ...(p.pattern ? { pattern: p.pattern } : {}) };
  const s: Record<string, unknown> = (() => {
    switch (p.type) {
      case "uuid": return { type: "string", format: "uuid" };
      case "string": return { type: "string", minLength: 1, ...text };
      case "text": return p.numeric
        ? { type: ["number", "null"], ...(p.min !== undefined ? { minimum: p.min } : {}), ...(p.max !== undefined ? { maximum: p.max } : {}) }
        : { type: ["string", "null"], ...text };
      case "integer": return { type: "integer", minimum: p.min, maximum: p.max };
      case "number": return { type: "number", ...(p.min !== undefined ? { minimum: p.min } : {}), ...(p.max !== undefined ? { maximum: p.max } : {}) };
      case "keuze": return { type: "string", enum: p.values };
      case "vlag": return { type: "string", enum: ["ja", "nee"] };
      case "array": return { type: "array", maxItems: p.maxItems,
        items: p.elements
          ? { type: "object", additionalProperties: false,
              properties: Object.fromEntries(Object.entries(p.elements).map(([k, e]) => [k, jsonSchema(e)])),
              required: Object.entries(p.elements).filter(([, e]) => e.required).map(([k]) => k) }
          : { type: "string", ...(p.values ? { enum: p.values } : { maxLength: p.maxLength }) } };
      case "object": return { type: "object", ...(p.values ? { propertyNames: { enum: p.values } } : {}),
        additionalProperties: { type: "string", maxLength: p.maxLength } };
    }
  })();
  return { ...s, description: p.description };
}
