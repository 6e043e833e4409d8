// The parameter types of the interface (uuid, string, text, integer, number, keuze, vlag,
// array, object), each with its zod schema and its description for the index, OpenAPI and MCP.
// Input arrives as query strings (GET) or JSON (POST); both normalise to the same JSON, so a
// confirmation code binds to the meaning of the input, not its spelling.
import { z } from "zod";

export type ParamType = "uuid" | "string" | "text" | "integer" | "number" | "keuze" | "vlag" | "array" | "object";

export interface Param {
  type: ParamType;
  verplicht: boolean;
  toelichting: string;
  waarden?: readonly string[];
  schema: z.ZodTypeAny;
}

interface Opties { verplicht?: boolean }

const leegIsAfwezig = (v: unknown) => (v === "" ? undefined : v);
const uuidPatroon = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function maak(type: ParamType, basis: z.ZodTypeAny, toelichting: string, o: Opties, extra: Partial<Param> = {}): Param {
  const schema = z.preprocess(leegIsAfwezig, o.verplicht ? basis : basis.optional());
  return { type, verplicht: o.verplicht ?? false, toelichting, schema, ...extra };
}

export const param = {
  uuid: (toelichting: string, o: Opties = {}) =>
    maak("uuid", z.string().regex(uuidPatroon, "moet een uuid zijn"), toelichting, o),
  string: (toelichting: string, o: Opties & { patroon?: RegExp; uitleg?: string; max?: number } = {}) => {
    let s = z.string().trim().min(1, "mag niet leeg zijn").max(o.max ?? 10_000, `is te lang (hoogstens ${o.max ?? 10_000} tekens)`);
    if (o.patroon) s = s.regex(o.patroon, o.uitleg ?? "heeft niet de juiste vorm");
    return maak("string", s, toelichting, o);
  },
  /** A string, or null to clear the value; with getal, a number (or numeric string) or null. */
  text: (toelichting: string, o: Opties & { getal?: boolean } = {}) =>
    ({ ...maak("text", z.string().nullable(), toelichting, o),
       schema: z.union([z.null(), z.preprocess(leegIsAfwezig, o.getal
         ? z.preprocess((v) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v),
             z.number({ invalid_type_error: "moet een getal of null zijn" }).finite().optional())
         : z.string().optional())]) }),
  integer: (toelichting: string, o: Opties & { min?: number; max?: number } = {}) =>
    maak("integer", z.preprocess(
      (v) => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v),
      z.number({ invalid_type_error: "moet een geheel getal zijn" }).int("moet een geheel getal zijn")
        .min(o.min ?? -2147483648, `moet minstens ${o.min} zijn`).max(o.max ?? 2147483647, `mag hoogstens ${o.max} zijn`)),
      toelichting, o),
  number: (toelichting: string, o: Opties = {}) =>
    maak("number", z.preprocess(
      (v) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v),
      z.number({ invalid_type_error: "moet een getal zijn" }).finite()), toelichting, o),
  keuze: (waarden: readonly [string, ...string[]], toelichting: string, o: Opties = {}) =>
    maak("keuze", z.enum(waarden as [string, ...string[]], {
      errorMap: () => ({ message: `moet een van ${waarden.join(", ")} zijn` }),
    }), toelichting, o, { waarden }),
  /** ja or nee (JSON true/false is accepted too); normalised to a boolean. */
  vlag: (toelichting: string, o: Opties = {}) =>
    maak("vlag", z.preprocess((v) => (v === "ja" ? true : v === "nee" ? false : v),
      z.boolean({ invalid_type_error: "moet ja of nee zijn" })), toelichting, o, { waarden: ["ja", "nee"] }),
  /** In a query string: repeated (tags=a&tags=b) or comma-separated. */
  array: (toelichting: string, o: Opties = {}) =>
    maak("array", z.preprocess((v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
      z.array(z.any(), { invalid_type_error: "moet een lijst zijn" }).max(100, "heeft te veel elementen")), toelichting, o),
  object: (toelichting: string, o: Opties = {}) =>
    maak("object", z.record(z.any(), { invalid_type_error: "moet een object zijn" }), toelichting, o),
};

export interface Fout { code: string; bericht: string; parameter?: string }

/**
 * Validates and normalises input against a parameter set. Unknown parameters are refused, so
 * a typo is reported rather than silently ignored.
 */
export function valideer(params: Record<string, Param>, invoer: unknown):
  { ok: true; waarde: Record<string, unknown> } | { ok: false; fout: Fout } {
  if (invoer === null || typeof invoer !== "object" || Array.isArray(invoer)) {
    return { ok: false, fout: { code: "ongeldige_parameters", bericht: "De invoer moet een JSON-object zijn." } };
  }
  const waarde: Record<string, unknown> = {};
  for (const sleutel of Object.keys(invoer)) {
    if (!(sleutel in params)) {
      return { ok: false, fout: { code: "ongeldige_parameters", parameter: sleutel,
        bericht: `Onbekende parameter ${sleutel}. De index op /api/v1 noemt de parameters.` } };
    }
  }
  for (const [naam, p] of Object.entries(params)) {
    const r = p.schema.safeParse((invoer as Record<string, unknown>)[naam]);
    if (!r.success) {
      const issue = r.error.issues[0];
      const reden = issue?.code === "invalid_type" && issue.received === "undefined"
        ? "is verplicht" : (issue?.message ?? "is ongeldig");
      return { ok: false, fout: { code: "ongeldige_parameters", parameter: naam, bericht: `${naam} ${reden}.` } };
    }
    if (r.data !== undefined) waarde[naam] = r.data;
  }
  return { ok: true, waarde };
}
