// Every option of the CLI, once: its type and what it means. A command accepts the options its
// usage line names (src/cli/commands.ts); the help and the README table are made from both.
// Nothing heavy is imported here: `koers --version` and `--help` load only this and the table.
import { parseArgs } from "node:util";
import { values } from "../choices.ts";

export class UsageError extends Error {}

interface Option { type: "string" | "boolean"; help: string; short?: string }

const text = (help: string) => ({ type: "string" as const, help });
const flag = (help: string) => ({ type: "boolean" as const, help });

export const OPTIONS = {
  json: flag("machine-readable output"),
  help: { type: "boolean" as const, help: "this help", short: "h" },
  version: flag("print the version"),
  org: text("organisation: its id or name, letter case aside (koers org list)"),
  naam: text("name"),
  tijdzone: text("IANA time zone of the organisation (default Europe/Amsterdam)"),
  email: text("e-mail address; a person already known by it joins with the same account"),
  rol: text(`role: ${values("rol").join(", ")}`),
  functietitel: text("job title"),
  team: text("team name; created when new"),
  wachtwoord: text("password of a new account, for signing in (koers user password sets one without showing it)"),
  user: text("member: user id or e-mail address (koers user list)"),
  "key-id": text("key id (koers key list)"),
  door: text(`the door: ${values("door").join(", ")}`),
  aan: flag("switch the door on"),
  uit: flag("switch the door off"),
  "alleen-lezen": flag("read only: writes answer alleen_lezen"),
  schrijven: flag("allow writes again"),
  limit: text("at most this many rows (default 50)"),
  nummer: text("task number"),
  id: text("id"),
  limiet: text("at most this many connections at once (default 5)"),
  kpi: text("KPI id (from kpi_scorebord)"),
  kwartaal: text("quarter, Q<n>-<yyyy>"),
  doel: text("target value"),
  prioriteit: text("priority id (an OKR)"),
  titel: text("title"),
  start: text("start value (default 0)"),
  waarde: text("value"),
  url: text("the receiver's address: https and a host name (docs/webhooks.md)"),
  gebeurtenissen: text("events to send, comma-separated (docs/webhooks.md)"),
  bericht: text("message id (koers webhook deliveries)"),
  leider: text("team leader: user id or e-mail address"),
  eindverantwoordelijke: text("ultimately responsible member: user id or e-mail address"),
  proces: text("process: its name or id"),
  wie: text("member: user id or e-mail address (whom it is about, or who holds the seat)"),
  met: text("conversation leader: user id or e-mail address"),
  actief: text("ja or nee"),
  soort: text("kind (the values are in the usage line)"),
  periode: text("period: <yyyy>-<mm>, Q<n>-<yyyy> or <yyyy>, as the kind asks"),
  goed: text("what went well"),
  beter: text("what can be better"),
  geleerd: text("what was learned"),
  focus: text("focus for the next period"),
  energie: text("energy, 1 to 10"),
  datum: text("date, yyyy-mm-dd"),
  uren: text("hours"),
  taak: text("task number"),
  project: text("project id"),
  omzet: text("revenue"),
  ebitda: text("normalised EBITDA"),
  multiple: text("multiple"),
  aandelenwaarde: text("equity value"),
  afgerond: flag("the conversation is completed"),
  eindoordeel: text(`final classification: ${values("eindclassificatie").join(", ")} (needs --afgerond)`),
  schema: flag("print the import file's JSON Schema instead of importing"),
  tekst: text("the text"),
  bestand: text("path of the file to attach (at most 10 MiB)"),
  ja: flag("yes, really: without it nothing is removed"),
} satisfies Record<string, Option>;

export type OptionName = keyof typeof OPTIONS;

/** parseArgs's description of the options. */
const parseOptions = Object.fromEntries(Object.entries(OPTIONS).map(([name, o]) =>
  [name, { type: o.type, ...("short" in o ? { short: o.short } : {}) }])) as
  { [K in OptionName]: { type: (typeof OPTIONS)[K]["type"] } };

export type Values = Partial<{ [K in OptionName]: (typeof OPTIONS)[K]["type"] extends "string" ? string : boolean }>;

export interface Parsed { values: Values; positionals: string[]; given: OptionName[] }

/** The command line, with every option the CLI knows (a command then allows only its own). */
export function parseCommandLine(args: string[]): Parsed {
  const { values: v, positionals, tokens } = parseArgs({ args, options: parseOptions, allowPositionals: true, strict: true, tokens: true });
  const given = [...new Set(tokens.filter((t) => t.kind === "option").map((t) => (t as { name: string }).name as OptionName))];
  return { values: v as Values, positionals, given };
}

/** The options named in a usage line. */
export function optionsOf(usage: string): OptionName[] {
  return [...new Set([...usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]! as OptionName))];
}

export function requireOption(v: Values, name: OptionName): string {
  const value = v[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

export function numberOption(v: Values, name: OptionName, whole = false): number {
  const value = requireOption(v, name);
  const n = Number(value);
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be a ${whole ? "whole " : ""}number, got "${value}"`);
  }
  return n;
}

export function limitOption(v: Values): number {
  const limit = v.limit === undefined ? 50 : Number(v.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number");
  return limit;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidOption(v: Values, name: OptionName): string {
  const value = requireOption(v, name);
  if (!UUID.test(value)) throw new UsageError(`--${name} must be an id (uuid)`);
  return value;
}

export function print(json: boolean, data: unknown, text: string) {
  console.log(json ? JSON.stringify(data, null, 2) : text);
}
