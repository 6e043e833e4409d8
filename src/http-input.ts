// What the REST door checks before parameters may go to the database at all: the content type,
// the body's encoding and shape, NUL characters and lone surrogates (PostgreSQL's jsonb refuses
// both), nesting depth, and query parameters on a POST. Each parameter's own rules (type,
// pattern, unknown names) are decided after this, by the registry's rules.
//
// Query strings and form bodies are read by one strict parser: a bad %-escape is refused naming
// its parameter instead of being passed on as text. JSON is read by JSON.parse, which keeps
// `__proto__` as an own key and does not recurse, after a scan that refuses deep nesting.
import type { ErrorBody } from "./parameters.ts";

/** Deepest nesting a JSON body may have (the body object itself is level 1). */
export const MAX_DEPTH = 32;
export const ACCEPTED_MEDIA_TYPES = ["application/json", "application/x-www-form-urlencoded"] as const;

/** A request body as the content-type parser leaves it: the Content-Type header and the raw bytes. */
export interface RawBody { contentType: string; bytes: Buffer }

export type Input =
  | { ok: true; value: Record<string, unknown> }
  /** `logged`: the input as far as it could be read, safe to store (the call log shows it). */
  | { ok: false; error: ErrorBody; logged: Record<string, unknown> };

// NUL, or a UTF-16 surrogate without its partner (no `u` flag: the regex sees code units).
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

function invalid(parameter: string | undefined, bericht: string, logged: Record<string, unknown> = {}): Input {
  return { ok: false, error: { code: "ongeldige_parameters", bericht, ...(parameter === undefined ? {} : { parameter }) }, logged };
}

/** A name as it may be shown and stored: NUL and lone surrogates spelled out as \uXXXX, at most 100 characters. */
export function displayName(name: string): string {
  const shown = name.replace(UNSTORABLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const chars = Array.from(shown); // by code point, so a cut never splits a surrogate pair
  return chars.length > 100 ? `${chars.slice(0, 100).join("")}…` : shown;
}

function whatIsWrong(text: string): string {
  return /\u0000/.test(text) ? "een NUL-teken" : "een losse UTF-16-surrogaat (geen geldige Unicode)";
}

/** A copy of a value that jsonb can store: unstorable characters replaced, nothing deeper than MAX_DEPTH. */
function storable(v: unknown, depth = 1): unknown {
  if (typeof v === "string") return v.replace(UNSTORABLE_ALL, "\uFFFD");
  if (v === null || typeof v !== "object") return v;
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(v)) return v.map((x) => storable(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [storable(k), storable(x, depth + 1)]));
}

/**
 * Whether a value holds a number JSON cannot carry: JSON.parse reads 1e309 as Infinity, which
 * would reach the database as null, "not given", instead of being refused as too large.
 */
function holdsEndlessNumber(v: unknown): boolean {
  if (typeof v === "number") return !Number.isFinite(v);
  if (v === null || typeof v !== "object") return false;
  return Object.values(v).some(holdsEndlessNumber);
}

/** The first unstorable text in a value, in a string or in a key at any depth. */
function findUnstorable(v: unknown): string | null {
  if (typeof v === "string") return UNSTORABLE.test(v) ? v : null;
  if (v === null || typeof v !== "object") return null;
  for (const [k, x] of Object.entries(v)) {
    if (!Array.isArray(v) && UNSTORABLE.test(k)) return k;
    const found = findUnstorable(x);
    if (found !== null) return found;
  }
  return null;
}

/** Checks every parameter name and value of an object; the first that cannot be stored is refused by name. */
export function checkStorable(input: Record<string, unknown>): Input {
  for (const [name, value] of Object.entries(input)) {
    if (UNSTORABLE.test(name)) {
      return invalid(displayName(name), `De parameternaam ${displayName(name)} bevat ${whatIsWrong(name)}. ` +
        "De index op /api/v1 noemt de parameters.", storable(input) as Record<string, unknown>);
    }
    const bad = findUnstorable(value);
    if (bad !== null) {
      return invalid(name, `${name} bevat ${whatIsWrong(bad)}.`, storable(input) as Record<string, unknown>);
    }
    if (holdsEndlessNumber(value)) {
      return invalid(name, `${name} bevat een getal dat te groot is.`, storable(input) as Record<string, unknown>);
    }
  }
  return { ok: true, value: input };
}

function decodeComponent(s: string): string | null {
  try {
    return decodeURIComponent(s.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/**
 * A query string or form body: `a=1&a=2` gives a list, as query strings do for arrays, and so
 * does `a[]=1&a[]=2` (the spelling of PHP, Rails and many HTTP clients): `a[]` is `a`, always a
 * list, so one `a[]=x,y` is the one element "x,y". A bad %-escape (also one that is not UTF-8)
 * is refused naming its parameter.
 */
export function readQueryString(text: string): Input {
  const value: Record<string, unknown> = {};
  const add = (spelled: string, v: string) => {
    const list = spelled.length > 2 && spelled.endsWith("[]");
    const name = list ? spelled.slice(0, -2) : spelled;
    if (!Object.hasOwn(value, name)) {
      Object.defineProperty(value, name, { value: list ? [v] : v, enumerable: true, writable: true, configurable: true });
    } else if (Array.isArray(value[name])) (value[name] as string[]).push(v);
    else value[name] = [value[name] as string, v];
  };
  for (const part of text.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const name = decodeComponent(rawName);
    if (name === null) {
      return invalid(displayName(rawName), `De parameternaam ${displayName(rawName)} heeft een ongeldige %-codering ` +
        "(% moet gevolgd worden door twee hexadecimale cijfers van geldige UTF-8).", storable(value) as Record<string, unknown>);
    }
    const v = decodeComponent(eq < 0 ? "" : part.slice(eq + 1));
    if (v === null) {
      return invalid(displayName(name), `${displayName(name)} heeft een ongeldige %-codering ` +
        "(% moet gevolgd worden door twee hexadecimale cijfers van geldige UTF-8).", storable(value) as Record<string, unknown>);
    }
    add(name, v);
  }
  return checkStorable(value);
}

/**
 * Scans JSON text for nesting deeper than MAX_DEPTH without building anything, so no parser
 * or later step can exhaust a stack. Returns null, or the top-level key under which it is too
 * deep ("" when the body itself is).
 */
export function tooDeep(text: string): { key: string | null } | null {
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  let candidate: string | null = null; // the last string at depth 1: a key once a colon follows
  let key: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) {
        inString = false;
        if (depth === 1) candidate = text.slice(stringStart, i + 1);
      }
      continue;
    }
    if (c === 0x22) { inString = true; stringStart = i; }
    else if (c === 0x3a && depth === 1) key = candidate; // ':'
    else if (c === 0x7b || c === 0x5b) { // '{' '['
      if (++depth > MAX_DEPTH) {
        if (key === null) return { key: null };
        try { return { key: JSON.parse(key) as string }; } catch { return { key: null }; }
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}

function readJson(text: string): Input {
  const deep = tooDeep(text);
  if (deep) {
    const where = deep.key === null ? "De body" : displayName(deep.key);
    return invalid(deep.key === null ? undefined : displayName(deep.key),
      `${where} is te diep genest (hoogstens ${MAX_DEPTH} niveaus).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid(undefined, "De body is geen geldige JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    const kind = parsed === null ? "niet null" : Array.isArray(parsed) ? "geen lijst"
      : `geen ${typeof parsed === "string" ? "tekst" : typeof parsed === "number" ? "getal" : "ja/nee-waarde"}`;
    return invalid(undefined, `De body moet een JSON-object zijn met de parameters als sleutels, ${kind}.`);
  }
  return checkStorable(parsed as Record<string, unknown>);
}

function unsupported(what: string): Input {
  return { ok: false, logged: {}, error: { code: "niet_ondersteund",
    bericht: `${what} Stuur de parameters als ${ACCEPTED_MEDIA_TYPES.join(" of ")} (UTF-8).` } };
}

/** Media type and charset of a Content-Type header, lower case. */
function mediaType(header: string): { type: string; charset: string | null } {
  const [type, ...params] = header.split(";");
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(p)?.[1]).find((c) => c !== undefined);
  return { type: type!.trim().toLowerCase(), charset: charset?.toLowerCase() ?? null };
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The input of a call, from the URL (GET) or the body (POST). A POST takes its parameters
 * from the body only: parameters in its query string are refused, not ignored.
 */
export function readInput(writes: boolean, rawUrl: string, body: RawBody | undefined): Input {
  const q = rawUrl.indexOf("?");
  const query = readQueryString(q < 0 ? "" : rawUrl.slice(q + 1));
  if (!writes || !query.ok) return query;
  const [first] = Object.keys(query.value);
  if (first !== undefined) {
    return invalid(displayName(first), `${displayName(first)} staat in de querystring; een POST krijgt zijn parameters ` +
      "in de body.", storable(query.value) as Record<string, unknown>);
  }
  if (!body || body.bytes.length === 0) return { ok: true, value: {} };
  const { type, charset } = mediaType(body.contentType);
  if (!(ACCEPTED_MEDIA_TYPES as readonly string[]).includes(type)) {
    return unsupported(type ? `Het formaat ${displayName(type)} wordt niet ondersteund.` : "Het formaat van de body ontbreekt (Content-Type).");
  }
  if (charset !== null && charset !== "utf-8" && charset !== "utf8") {
    return unsupported(`De tekenset ${displayName(charset)} wordt niet ondersteund.`);
  }
  let text: string;
  try {
    text = utf8.decode(body.bytes);
  } catch {
    return invalid(undefined, "De body is geen geldige UTF-8.");
  }
  if (text.trim() === "") return { ok: true, value: {} };
  return type === "application/json" ? readJson(text) : readQueryString(text.trim());
}
