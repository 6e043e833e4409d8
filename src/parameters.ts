// The parameter types of the interface (uuid, string, text, integer, number, keuze, vlag,
// array, object), each with its zod schema and its description for the index, OpenAPI and MCP.
// Input arrives as query strings (GET) or JSON (POST); both normalise to the same JSON, so a
// confirmation code binds to the meaning of the input, not its spelling.
import { z } from "zod";

/** The type names clients see in the index; they follow the interface's spelling. */
export type ParamType = "uuid" | "string" | "text" | "integer" | "number" | "keuze" | "vlag" | "array" | "object";

export interface Param {
  type: ParamType;
  required: boolean;
  description: string;
  values?: readonly string[];
  schema: z.ZodTypeAny;
}

interface Options { required?: boolean }

const emptyIsAbsent = (v: unknown) => (v === "" ? undefined : v);
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function makeParam(type: ParamType, base: z.ZodTypeAny, description: string, o: Options, extra: Partial<Param> = {}): Param {
  const schema = z.preprocess(emptyIsAbsent, o.required ? base : base.optional());
  return { type, required: o.required ?? false, description, schema, ...extra };
}

export const param = {
  uuid: (description: string, o: Options = {}) =>
    makeParam("uuid", z.string().regex(UUID_PATTERN, "moet een uuid zijn"), description, o),
  string: (description: string, o: Options & { pattern?: RegExp; explanation?: string; max?: number } = {}) => {
    let s = z.string().trim().min(1, "mag niet leeg zijn").max(o.max ?? 10_000, `is te lang (hoogstens ${o.max ?? 10_000} tekens)`);
    if (o.pattern) s = s.regex(o.pattern, o.explanation ?? "heeft niet de juiste vorm");
    return makeParam("string", s, description, o);
  },
  /** A string, or null to clear the value; with numeric, a number (or numeric string) or null. */
  text: (description: string, o: Options & { numeric?: boolean } = {}) =>
    ({ ...makeParam("text", z.string().nullable(), description, o),
       schema: z.union([z.null(), z.preprocess(emptyIsAbsent, o.numeric
         ? z.preprocess((v) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v),
             z.number({ invalid_type_error: "moet een getal of null zijn" }).finite().optional())
         : z.string().optional())]) }),
  integer: (description: string, o: Options & { min?: number; max?: number } = {}) =>
    makeParam("integer", z.preprocess(
      (v) => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v),
      z.number({ invalid_type_error: "moet een geheel getal zijn" }).int("moet een geheel getal zijn")
        .min(o.min ?? -2147483648, `moet minstens ${o.min ?? -2147483648} zijn`)
        .max(o.max ?? 2147483647, `mag hoogstens ${o.max ?? 2147483647} zijn`)),
      description, o),
  number: (description: string, o: Options = {}) =>
    makeParam("number", z.preprocess(
      (v) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v),
      z.number({ invalid_type_error: "moet een getal zijn" }).finite()), description, o),
  /** One of a fixed list of values (type keuze in the index). */
  choice: (values: readonly [string, ...string[]], description: string, o: Options = {}) =>
    makeParam("keuze", z.enum(values as [string, ...string[]], {
      errorMap: () => ({ message: `moet een van ${values.join(", ")} zijn` }),
    }), description, o, { values }),
  /** ja or nee (JSON true/false is accepted too); normalised to a boolean (type vlag in the index). */
  flag: (description: string, o: Options = {}) =>
    makeParam("vlag", z.preprocess((v) => (v === "ja" ? true : v === "nee" ? false : v),
      z.boolean({ invalid_type_error: "moet ja of nee zijn" })), description, o, { values: ["ja", "nee"] }),
  /** In a query string: repeated (tags=a&tags=b) or comma-separated. */
  array: (description: string, o: Options = {}) =>
    makeParam("array", z.preprocess((v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
      z.array(z.any(), { invalid_type_error: "moet een lijst zijn" }).max(100, "heeft te veel elementen")), description, o),
  object: (description: string, o: Options = {}) =>
    makeParam("object", z.record(z.any(), { invalid_type_error: "moet een object zijn" }), description, o),
};

/** The body of a refusal, under the key `fout`; its keys are the API's. */
export interface ErrorBody { code: string; bericht: string; parameter?: string }

/**
 * Validates and normalises input against a parameter set. Unknown parameters are refused, so
 * a typo is reported rather than silently ignored.
 */
export function validate(params: Record<string, Param>, input: unknown):
  { ok: true; value: Record<string, unknown> } | { ok: false; error: ErrorBody } {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { ok: false, error: { code: "ongeldige_parameters", bericht: "De invoer moet een JSON-object zijn." } };
  }
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(params, key)) { // not `in`: constructor, toString, ... are no parameters
      return { ok: false, error: { code: "ongeldige_parameters", parameter: key,
        bericht: `Onbekende parameter ${key}. De index op /api/v1 noemt de parameters.` } };
    }
  }
  for (const [name, p] of Object.entries(params)) {
    const r = p.schema.safeParse((input as Record<string, unknown>)[name]);
    if (!r.success) {
      const issue = r.error.issues[0];
      const reason = issue?.code === "invalid_type" && issue.received === "undefined"
        ? "is verplicht" : (issue?.message ?? "is ongeldig");
      return { ok: false, error: { code: "ongeldige_parameters", parameter: name, bericht: `${name} ${reason}.` } };
    }
    if (r.data !== undefined) value[name] = r.data;
  }
  return { ok: true, value };
}
