// What an operation is, as the registry (src/registry.ts) defines it, and the parameter rules
// several operations share.
import type { Param } from "../parameters.ts";
import type { Right, Role, Section } from "../choices.ts";
import type { Output } from "../schemas.ts";

export interface Operation {
  name: string;
  writes: boolean;
  section: Section | null;
  /** The module an organisation can switch off (then the operation answers rol_mag_niet). */
  module: string;
  /** Rights of lid and coach; eigenaar, admin and mt have "alles" unless given here. */
  rights: Partial<Record<Role, Right>> & { lid: Right; coach: Right };
  description: string;
  parameters: Record<string, Param>;
  /** False only for wie_ben_ik: every other operation takes org_id. */
  requiresOrg?: boolean;
  /** False for strategie_bijwerken, which stores a proposal instead. */
  twoStep?: boolean;
  /** Only on the AI connection (organisaties). */
  onlyMcp?: boolean;
  /** A short title (the MCP tool's title, the docs page's heading). */
  title: string;
  /** A write that changes or removes what exists, not only adds (MCP destructiveHint). */
  destructive?: boolean;
  /**
   * What it answers on success, as JSON Schema (OpenAPI and the MCP tools' outputSchema are
   * made from it; test/openapi-answers.test.ts checks real answers against it). Read it off the
   * SQL that makes the answer (`api.<name>`, the `*_weergave` functions) and use the builder and
   * shared shapes of src/schemas.ts:
   * - a read: `reads({ taken: s.array(shapes.taak), afgekapt: s.boolean() })`, the keys of its body;
   * - a write: `writes({ voorstel: { titel: veld(s.string()), ... }, resultaat: { taak: shapes.taak } })`,
   *   the keys of `voorstel` (each `veld(x)`: {nu, wordt}) and of `resultaat` as api.<name> returns
   *   them; `voorstel: null` for a write without two steps.
   * Every key is required unless wrapped in `s.optional`; a value that can be null is `s.nullable(x)`.
   */
  output: Output;
  /** Parameters the example curl line of /api/v1/docs adds to the required ones, when those alone make no working call. */
  example?: Record<string, string>;
}

export const DATE = { pattern: /^\d{4}-\d{2}-\d{2}$/, explanation: "moet een datum zijn als jjjj-mm-dd" };
export const UUID = { pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, explanation: "moet een uuid zijn" };
export const TAGS = { maxItems: 50, itemMax: 50 };
export const HOURS = { min: 0, max: 10_000 };

export const WEEK = { pattern: /^(\d{4}-W\d{2}|deze|volgende)$/, explanation: "moet een ISO-week zijn als 2026-W07, of deze of volgende" };
/** highlights, besluiten, learnings of a session note: texts. */
export const NOTE_TEXTS = { maxItems: 50, itemMax: 2000 };
export const QUARTER = { pattern: /^Q[1-4]-\d{4}$/, explanation: "moet een kwartaal zijn als Q2-2026" };
