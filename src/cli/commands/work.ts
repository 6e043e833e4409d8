// What the interface says happens "in the app" about the work itself: ticking off tasks,
// completing priorities, KPI targets, key results, comments and attachments, teams, processes
// and roles, reflections, hours, valuations, review conversations, session notes and strategy
// proposals. Each acts as the app (door app in the call log), naming the member given with --user.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "../command.ts";
import { numberOption, print, requireOption, UsageError, uuidOption } from "../options.ts";
import { one, withDatabase } from "../database.ts";
import { values } from "../../choices.ts";

/** The database refuses larger files (app_hidden.bijlage_max_bytes). */
const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

const MIMETYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  txt: "text/plain", md: "text/markdown", csv: "text/csv",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg",
};

/** An attachment's bytes; past the limit only enough to let the database refuse it by size. */
function readAttachment(file: string): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new UsageError(`--bestand: cannot read ${file}`);
  }
  if (!stat.isFile()) throw new UsageError(`--bestand: ${file} is not a file`);
  const length = Math.min(stat.size, ATTACHMENT_MAX_BYTES + 1);
  const buffer = Buffer.alloc(length);
  const fd = fs.openSync(file, "r");
  try {
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

function strategy(approve: boolean): Command {
  return {
    words: ["strategie", approve ? "approve" : "reject"], aliases: [`strategie ${approve ? "goedkeuren" : "afwijzen"}`],
    usage: "--org O --id P [--user U]",
    about: approve
      ? "Approves an open strategy proposal: its fields are written to the canvas. The reviewer, when named, is an owner, admin or MT member."
      : "Rejects an open strategy proposal. The reviewer, when named, is an owner, admin or MT member.",
    run: async ({ values: v, json }) => {
      const [org, id] = [requireOption(v, "org"), uuidOption(v, "id")];
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.strategie_beoordelen(beheer.org(${org}), ${id}, ${approve}, ${v.user ?? null}) as r`));
      print(json, r, r.status === "goedgekeurd"
        ? `strategy proposal approved; canvas fields set: ${Object.keys(r.velden).join(", ") || "none"}`
        : "strategy proposal rejected");
    },
  };
}

export const workCommands: Command[] = [
  {
    words: ["taak", "complete"], aliases: ["taak klaar"], usage: "--org O --nummer N [--user U]",
    about: "Ticks a task off as the app does (emits taak.klaar; a repeating task gets its next occurrence). With --user, " +
      "the history and the log name that person.",
    run: async ({ values: v, json }) => {
      const [org, taskNumber] = [requireOption(v, "org"), numberOption(v, "nummer", true)];
      const r = await withDatabase(async (sql) => one(sql`select beheer.taak_afvinken(beheer.org(${org}), ${taskNumber}, ${v.user ?? null}) as r`));
      print(json, r, `task #${r.nummer} ${r.omschrijving}: ${r.stand}`);
    },
  },
  {
    words: ["prioriteit", "complete"], aliases: ["prioriteit afronden"], usage: "--org O --id P [--user U]",
    about: "Completes a priority (emits prioriteit.afgerond; its repeating tasks stop).",
    run: async ({ values: v, json }) => {
      const [org, id] = [requireOption(v, "org"), uuidOption(v, "id")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.prioriteit_afronden(beheer.org(${org}), ${id}, ${v.user ?? null}) as r`));
      print(json, r, `priority completed: ${r.titel}`);
    },
  },
  {
    words: ["kpi", "set"], aliases: ["kpi doel"], usage: "--org O --kpi K --kwartaal Q3-2026 --doel N",
    about: "Sets a KPI's target for a quarter.",
    run: async ({ values: v, json }) => {
      const [org, kpi, quarter, target] = [requireOption(v, "org"), uuidOption(v, "kpi"), requireOption(v, "kwartaal"), numberOption(v, "doel")];
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.kpi_kwartaaldoel_zetten(beheer.org(${org}), ${kpi}, ${quarter}, ${target}) as r`));
      print(json, r, `${r.naam}: target ${r.kwartaaldoel} in ${r.kwartaal}, light ${r.stoplicht ?? "none yet"}`);
    },
  },
  {
    words: ["kernresultaat", "add"], aliases: ["kernresultaat toevoegen"], usage: "--org O --prioriteit P --titel T --doel N [--start S]",
    about: "Adds a key result to an OKR.",
    run: async ({ values: v, json }) => {
      const [org, priority, title, target] = [requireOption(v, "org"), uuidOption(v, "prioriteit"), requireOption(v, "titel"), numberOption(v, "doel")];
      const start = v.start === undefined ? 0 : numberOption(v, "start");
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.kernresultaat_toevoegen(beheer.org(${org}), ${priority}, ${title}, ${target}, ${start}) as r`));
      print(json, r, `key result added (id ${r.id}); ${r.prioriteit.titel} is ${r.prioriteit.stand}`);
    },
  },
  {
    words: ["kernresultaat", "update"], aliases: ["kernresultaat bijwerken"], usage: "--org O --id K --waarde N",
    about: "Records a key result's progress.",
    run: async ({ values: v, json }) => {
      const [org, id, value] = [requireOption(v, "org"), uuidOption(v, "id"), numberOption(v, "waarde")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.kernresultaat_bijwerken(beheer.org(${org}), ${id}, ${value}) as r`));
      print(json, r, `key result at ${r.waarde}; ${r.prioriteit.titel}: ${r.prioriteit.voortgang}% (${r.prioriteit.stand})`);
    },
  },
  {
    words: ["opmerking", "add"], aliases: ["opmerking plaatsen"], usage: "--org O --taak NUMMER --user U --tekst T",
    about: "Places a comment on a task as that member (the call log names them); zoeken finds it.",
    run: async ({ values: v, json }) => {
      const [org, taskNumber, user, text] = [requireOption(v, "org"), numberOption(v, "taak", true), requireOption(v, "user"),
        requireOption(v, "tekst")];
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.opmerking_plaatsen(o.id, ${taskNumber}, beheer.lid(o.id, ${user}), ${text}) as r
        from (select beheer.org(${org}) as id) o`));
      print(json, r, `comment placed on task #${r.taak.nummer} ${r.taak.titel} (id ${r.id})`);
    },
  },
  {
    words: ["bijlage", "add"], aliases: ["bijlage toevoegen"], usage: "--org O --taak NUMMER --user U --bestand PAD",
    about: "Stores a file (at most 10 MiB, inside PostgreSQL) on a task; the task's history names the member. The worker " +
      "then reads the text of PDF, .docx, .xlsx and text files for zoeken.",
    run: async ({ values: v, json }) => {
      const [org, taskNumber, user, file] = [requireOption(v, "org"), numberOption(v, "taak", true), requireOption(v, "user"),
        requireOption(v, "bestand")];
      const content = readAttachment(file);
      const mimetype = MIMETYPES[path.extname(file).slice(1).toLowerCase()] ?? null;
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.bijlage_toevoegen(o.id, ${taskNumber}, beheer.lid(o.id, ${user}), ${path.basename(file)},
                                        ${mimetype}, ${content}) as r
        from (select beheer.org(${org}) as id) o`));
      print(json, r, `attachment ${r.naam} (${r.bytes} bytes) stored on task #${r.taak.nummer}; its text is read in the background`);
    },
  },
  {
    words: ["team", "create"], aliases: ["team maken"], usage: "--org O --naam N [--leider U]",
    about: "Creates a team, optionally with its leader (names are unique, ignoring case).",
    run: async ({ values: v, json }) => {
      const [org, name] = [requireOption(v, "org"), requireOption(v, "naam")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.team_maken(beheer.org(${org}), ${name}, ${v.leider ?? null}) as r`));
      print(json, r, `team created: ${r.naam} (id ${r.id})${r.leider ? `, led by ${r.leider.naam}` : ""}`);
    },
  },
  {
    words: ["proces", "create"], aliases: ["proces maken"], usage: "--org O --naam N --eindverantwoordelijke U",
    about: "Creates a business process, last in order, with the member ultimately responsible for it.",
    run: async ({ values: v, json }) => {
      const [org, name, lead] = [requireOption(v, "org"), requireOption(v, "naam"), requireOption(v, "eindverantwoordelijke")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.proces_maken(beheer.org(${org}), ${name}, ${lead}) as r`));
      print(json, r, `process created: ${r.naam} (id ${r.id}), ultimately responsible ${r.eindverantwoordelijke.naam}`);
    },
  },
  {
    words: ["rol", "create"], aliases: ["rol maken"], usage: "--org O --proces P --naam N [--wie U]",
    about: "Creates a role seat in a process (by name or id), occupied or, without --wie, open.",
    run: async ({ values: v, json }) => {
      const [org, process, name] = [requireOption(v, "org"), requireOption(v, "proces"), requireOption(v, "naam")];
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.rol_maken(beheer.org(${org}), ${process}, ${name}, ${v.wie ?? null}) as r`));
      print(json, r, `role created: ${r.naam} in ${r.proces.naam} (id ${r.id}), ${r.wie ? `held by ${r.wie.naam}` : "open"}`);
    },
  },
  {
    words: ["reflectie", "submit"], aliases: ["reflectie indienen"],
    usage: `--org O --user U --soort ${values("reflectie_soort").join("|")} --periode P --goed T --beter T --geleerd T --focus T --energie 1-10`,
    about: "Submits a reflection as that member (P is 2026-05, Q2-2026 or 2026 to match the kind; not a period that has " +
      "not begun). One per person, kind and period: submitting again replaces the text and moves the submission time. " +
      "Its content never reaches the call log.",
    run: async ({ values: v, json }) => {
      const [org, user, kind, period] = [requireOption(v, "org"), requireOption(v, "user"), requireOption(v, "soort"), requireOption(v, "periode")];
      const [good, better, learned, focus] = [requireOption(v, "goed"), requireOption(v, "beter"), requireOption(v, "geleerd"), requireOption(v, "focus")];
      const energy = numberOption(v, "energie", true);
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.reflectie_indienen(beheer.org(${org}), ${user}, ${kind}, ${period}, ${good}, ${better},
                                         ${learned}, ${focus}, ${energy}) as r`));
      print(json, r, `reflection ${r.overschreven ? "resubmitted" : "submitted"}: ${r.wie.naam}, ${r.soort} ${r.periode}`);
    },
  },
  {
    words: ["uren", "write"], aliases: ["uren schrijven"], usage: "--org O --user U --datum D --uren N [--taak NUMMER|--prioriteit ID|--project ID]",
    about: "Writes hours for a member, on a task (by number), a priority, a project or nothing in particular; not in the " +
      "future, at most 24 a day per person.",
    run: async ({ values: v, json }) => {
      const [org, user, date, hours] = [requireOption(v, "org"), requireOption(v, "user"), requireOption(v, "datum"), numberOption(v, "uren")];
      if ([v.taak, v.prioriteit, v.project].filter((x) => x !== undefined).length > 1) {
        throw new UsageError("give at most one of --taak, --prioriteit and --project");
      }
      const task = v.taak === undefined ? null : numberOption(v, "taak", true);
      const priority = v.prioriteit === undefined ? null : uuidOption(v, "prioriteit");
      const project = v.project === undefined ? null : uuidOption(v, "project");
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.uren_schrijven(beheer.org(${org}), ${user}, ${date}, ${hours}, ${task}, ${priority}, ${project}) as r`));
      const on = r.taak ? ` on task #${r.taak.nummer}` : r.prioriteit ? ` on ${r.prioriteit.titel}` : r.project ? ` on ${r.project.titel}` : "";
      print(json, r, `${r.uren} h written for ${r.wie.naam} on ${r.datum}${on} (${r.dag_totaal} h that day)`);
    },
  },
  {
    words: ["waardering", "measure"], aliases: ["waardering meten"],
    usage: "--org O --periode P [--omzet N --ebitda N --multiple N --aandelenwaarde N]",
    about: "Records a company valuation for a month 2026-05, quarter Q2-2026 or year 2026. Without figures: an open " +
      "invitation to the bookkeeper; with all four: the figures as measured now. One per period: figures fill the " +
      "invitation or replace earlier figures; an invitation over figures is refused.",
    run: async ({ values: v, json }) => {
      const [org, period] = [requireOption(v, "org"), requireOption(v, "periode")];
      const figures = (["omzet", "ebitda", "multiple", "aandelenwaarde"] as const);
      const given = figures.filter((f) => v[f] !== undefined);
      if (given.length > 0 && given.length < figures.length) {
        throw new UsageError("give --omzet, --ebitda, --multiple and --aandelenwaarde together, or none (an open invitation)");
      }
      const [revenue, ebitda, multiple, equity] = figures.map((f) => (given.length ? numberOption(v, f) : null));
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.waardering_meten(beheer.org(${org}), ${period}, ${revenue ?? null}, ${ebitda ?? null},
                                       ${multiple ?? null}, ${equity ?? null}) as r`));
      print(json, r, r.open_uitnodiging ? `valuation ${r.periode}: open invitation to the bookkeeper`
        : `valuation ${r.periode} measured: equity value ${r.aandelenwaarde}${r.overschreven ? " (replaced the earlier one)" : ""}`);
    },
  },
  {
    words: ["gesprek", "record"], aliases: ["gesprek vastleggen"],
    usage: `--org O --wie U --met U --soort S --datum D [--afgerond] [--eindoordeel ${values("eindclassificatie").join("|")}]`,
    about: `Records a review conversation about --wie led by --met; S is ${values("gesprek_soort").join(", ")}. The same ` +
      "people, kind and date again update it; a final classification needs --afgerond.",
    run: async ({ values: v, json }) => {
      const [org, who, leader, kind, date] = [requireOption(v, "org"), requireOption(v, "wie"), requireOption(v, "met"),
        requireOption(v, "soort"), requireOption(v, "datum")];
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.gesprek_vastleggen(beheer.org(${org}), ${who}, ${leader}, ${kind}, ${date}, ${v.afgerond ?? false},
                                         ${v.eindoordeel ?? null}) as r`));
      print(json, r, `${r.soort} conversation ${r.bijgewerkt ? "updated" : "recorded"}: ${r.wie.naam} with ${r.met.naam} on ${r.datum}` +
        `${r.afgerond ? `, completed${r.eindoordeel ? ` (${r.eindoordeel})` : ""}` : ""}`);
    },
  },
  {
    words: ["sessienotitie", "establish"], aliases: ["sessienotitie vaststellen"], usage: "--org O --id N",
    about: "The coach establishes a concept session note; from then on the client sees it.",
    run: async ({ values: v, json }) => {
      const [org, id] = [requireOption(v, "org"), uuidOption(v, "id")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.sessienotitie_vaststellen(beheer.org(${org}), ${id}) as r`));
      print(json, r, `session note established: ${r.titel} (${r.datum})`);
    },
  },
  strategy(true),
  strategy(false),
];
