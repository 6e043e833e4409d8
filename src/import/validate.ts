// Checking an import file's shape against the JSON Schema, with every fault at its place in the
// file (a JSON pointer) and in Dutch, as people read it. What the shape cannot say (references,
// dates that exist, rules of the domain) the database checks (db/911_import_controleren.sql); the two lists
// are reported together, in the order of the file.
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { importSchema, patternExplanations } from "./schema.ts";

/** One fault: where in the file (a JSON pointer) and what is wrong. */
export interface Fault { pad: string; bericht: string }

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateShape = ajv.compile(importSchema);

/** Deeper than any item of the format (/taken/0/subtaken/0/opmerkingen/0/tekst is 7). */
const MAX_DEPTH = 12;

const escapePointer = (k: string) => k.replaceAll("~", "~0").replaceAll("/", "~1");

const TYPES: Record<string, string> = {
  string: "tekst", number: "een getal", integer: "een geheel getal", boolean: "true of false", array: "een lijst",
  object: "een object",
};

function dutch(e: ErrorObject): Fault {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { pad: `${e.instancePath}/${escapePointer(String(p.missingProperty))}`, bericht: "is verplicht." };
    case "additionalProperties":
      return { pad: `${e.instancePath}/${escapePointer(String(p.additionalProperty))}`,
        bericht: "bestaat niet in het importformaat (zie docs/import.md)." };
    case "type":
      return { pad: e.instancePath, bericht: `moet ${TYPES[String(p.type)] ?? p.type} zijn.` };
    case "enum":
      return { pad: e.instancePath, bericht: `moet een van ${(p.allowedValues as unknown[]).join(", ")} zijn.` };
    case "pattern":
      return { pad: e.instancePath, bericht: `${patternExplanations[String(p.pattern)] ?? "heeft niet de juiste vorm"}.` };
    case "minLength":
      return { pad: e.instancePath, bericht: "mag niet leeg zijn." };
    case "maxLength":
      return { pad: e.instancePath, bericht: `is te lang (hoogstens ${p.limit} tekens).` };
    case "minimum":
      return { pad: e.instancePath, bericht: `moet minstens ${p.limit} zijn.` };
    case "exclusiveMinimum":
      return { pad: e.instancePath, bericht: `moet meer dan ${p.limit} zijn.` };
    case "maximum":
      return { pad: e.instancePath, bericht: `mag hoogstens ${p.limit} zijn.` };
    default:
      return { pad: e.instancePath, bericht: e.message ?? "klopt niet." };
  }
}

/** A lone UTF-16 surrogate or a NUL: text PostgreSQL cannot hold. */
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface Checked {
  /** Faults of shape and of text. */
  faults: Fault[];
  /** The file as the database may receive it: bad text and what is nested too deep left out. */
  forDatabase: unknown;
  /** Position of every value of the file in reading order, to sort faults by. */
  order: Map<string, number>;
}

/**
 * Walks the file without recursion (a file may nest arbitrarily deep), noting the reading order
 * of every value, text PostgreSQL cannot hold, and building the copy the database gets.
 */
function walk(file: unknown): { faults: Fault[]; copy: unknown; order: Map<string, number> } {
  const faults: Fault[] = [];
  const order = new Map<string, number>();
  const root: { value: unknown } = { value: undefined };
  const stack: { value: unknown; pointer: string; depth: number; put: (v: unknown) => void }[] =
    [{ value: file, pointer: "", depth: 0, put: (v) => (root.value = v) }];
  while (stack.length > 0) {
    const { value, pointer, depth, put } = stack.pop()!;
    order.set(pointer, order.size);
    if (typeof value === "string") {
      if (BAD_TEXT.test(value)) {
        faults.push({ pad: pointer, bericht: "bevat een teken dat geen tekst kan zijn (NUL of een losse surrogaat)." });
        put(null);
      } else put(value);
    } else if (value === null || typeof value !== "object") {
      put(value);
    } else if (depth >= MAX_DEPTH) {
      put(null); // no item of the format nests this deep: the shape check names it
    } else if (Array.isArray(value)) {
      const copy: unknown[] = new Array(value.length).fill(null);
      put(copy);
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], pointer: `${pointer}/${i}`, depth: depth + 1, put: (v) => (copy[i] = v) });
      }
    } else {
      const copy: Record<string, unknown> = {};
      put(copy);
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        if (BAD_TEXT.test(k)) {
          faults.push({ pad: `${pointer}/${escapePointer(k)}`, bericht: "heeft een naam met een teken dat geen tekst kan zijn." });
          continue;
        }
        stack.push({ value: v, pointer: `${pointer}/${escapePointer(k)}`, depth: depth + 1, put: (x) => (copy[k] = x) });
      }
    }
  }
  return { faults, copy: root.value, order };
}

export function checkShape(file: unknown): Checked {
  const { faults, copy, order } = walk(file);
  if (!validateShape(file)) {
    for (const e of validateShape.errors ?? []) faults.push(dutch(e));
  }
  return { faults, forDatabase: copy, order };
}

/**
 * The faults of both checks in the order of the file, each once; the database's fault at a
 * place the shape check already named is left out (it follows from that fault).
 */
export function mergeFaults(shape: Fault[], database: Fault[], order: Map<string, number>): Fault[] {
  const named = new Set(shape.map((f) => f.pad));
  const under = (pad: string): boolean => {
    for (let p = pad; p !== ""; p = p.slice(0, p.lastIndexOf("/"))) if (named.has(p)) return true;
    return named.has("");
  };
  const all = [...shape, ...database.filter((f) => !under(f.pad))];
  const position = (pad: string): number => {
    for (let p = pad; ; p = p.slice(0, p.lastIndexOf("/"))) {
      const n = order.get(p);
      if (n !== undefined) return n + (p === pad ? 0 : 0.5);
      if (p === "") return 0;
    }
  };
  const seen = new Set<string>();
  return all
    .filter((f) => !seen.has(`${f.pad}\0${f.bericht}`) && seen.add(`${f.pad}\0${f.bericht}`))
    .sort((a, b) => position(a.pad) - position(b.pad) || (a.pad < b.pad ? -1 : a.pad > b.pad ? 1 : 0));
}
