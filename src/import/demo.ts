// `koers demo`: the demo organisation of docs/demo.json, moved to the running quarter. The file
// is written for Q2-2026 (its "today" in week 20), with Q1-2026 as the quarter before; figures
// such as a priority's stand and a KPI's traffic light are computed against today, so the data
// must sit around today to show them. Dates, months, quarters and years move by whole quarters,
// KPI weeks by the weeks between the first weeks of the two quarters (so a week stays in its
// quarter), and the weekly board and task weeks by the weeks from week 20 to this week (so this
// week's board is full). What then lies in the future and cannot be recorded yet is left out,
// by the same rules the import applies: measurements of a period not begun, hours after today,
// reflections and valuations of a period not begun, notes and completed conversations after
// today.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEMO_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/demo.json");
export const DEMO_ORG = "Groeneveld Installaties (demo)";
/** The person the printed API key acts for. */
export const DEMO_OWNER = "sanne@groeneveld-installaties.nl";
const ANCHOR_QUARTER = { year: 2026, quarter: 2 };
const ANCHOR_WEEK = "2026-W20";

type Item = Record<string, unknown>;
export type DemoFile = Record<string, unknown>;

const DAY = 86_400_000;
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number): string => new Date(t).toISOString().slice(0, 10);

function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12), month = index % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return iso(Date.UTC(year, month, Math.min(d, last)));
}

/** The Monday of an ISO week 'yyyy-Www'. */
export function weekMonday(week: string): number {
  const [y, w] = [Number(week.slice(0, 4)), Number(week.slice(6))];
  const jan4 = Date.UTC(y, 0, 4);
  const jan4Day = (new Date(jan4).getUTCDay() + 6) % 7; // Monday 0
  return jan4 - jan4Day * DAY + (w - 1) * 7 * DAY;
}

export function isoWeek(t: number): string {
  const weekday = (new Date(t).getUTCDay() + 6) % 7;
  const thursday = t - weekday * DAY + 3 * DAY;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The Monday of a quarter's first week (the first week whose Thursday lies in it). */
function firstWeekMonday(year: number, quarter: number): number {
  const start = Date.UTC(year, (quarter - 1) * 3, 1);
  const weekday = (new Date(start).getUTCDay() + 6) % 7;
  const monday = start - weekday * DAY;
  return weekday <= 3 ? monday : monday + 7 * DAY;
}

export interface Shift {
  today: string;
  quarters: number;
  kpiWeeks: number;
  boardWeeks: number;
}

export function shiftFor(today: string): Shift {
  const [y, m] = today.split("-").map(Number) as [number, number];
  const quarter = Math.floor((m - 1) / 3) + 1;
  const quarters = (y * 4 + quarter) - (ANCHOR_QUARTER.year * 4 + ANCHOR_QUARTER.quarter);
  const kpiWeeks = Math.round((firstWeekMonday(y, quarter) - firstWeekMonday(ANCHOR_QUARTER.year, ANCHOR_QUARTER.quarter)) / (7 * DAY));
  const todayMonday = day(today) - ((new Date(day(today)).getUTCDay() + 6) % 7) * DAY;
  const boardWeeks = Math.round((todayMonday - weekMonday(ANCHOR_WEEK)) / (7 * DAY));
  return { today, quarters, kpiWeeks, boardWeeks };
}

const shiftDate = (s: Shift, d: string) => addMonths(d, 3 * s.quarters);
const shiftMonth = (s: Shift, m: string) => addMonths(`${m}-01`, 3 * s.quarters).slice(0, 7);
const shiftWeek = (w: string, weeks: number) => isoWeek(weekMonday(w) + weeks * 7 * DAY);
/** Q<n>-<yyyy> (or, with kpi, <yyyy>-Q<n>). */
function shiftQuarter(s: Shift, q: string, kpi = false): string {
  const [n, y] = kpi ? [Number(q.slice(6)), Number(q.slice(0, 4))] : [Number(q.slice(1, 2)), Number(q.slice(3))];
  const index = y * 4 + (n - 1) + s.quarters;
  const [year, quarter] = [Math.floor(index / 4), (index % 4) + 1];
  return kpi ? `${year}-Q${quarter}` : `Q${quarter}-${year}`;
}
/** A period of a reflection or valuation: <yyyy>-<mm>, Q<n>-<yyyy> or <yyyy>. */
function shiftPeriod(s: Shift, p: string): string {
  if (/^\d{4}-\d{2}$/.test(p)) return shiftMonth(s, p);
  if (/^Q[1-4]-\d{4}$/.test(p)) return shiftQuarter(s, p);
  const years = Math.floor((ANCHOR_QUARTER.year * 4 + ANCHOR_QUARTER.quarter - 1 + s.quarters) / 4) - ANCHOR_QUARTER.year;
  return String(Number(p) + years);
}
/** The first day of such a period. */
function periodStart(p: string): string {
  if (/^\d{4}-\d{2}$/.test(p)) return `${p}-01`;
  if (/^Q[1-4]-\d{4}$/.test(p)) return `${p.slice(3)}-${String((Number(p[1]) - 1) * 3 + 1).padStart(2, "0")}-01`;
  return `${p}-01-01`;
}
/** Whether a KPI measurement's period may be recorded today (kpi_meting_invoeren's rule). */
function measurable(s: Shift, periode: string): boolean {
  if (/W/.test(periode)) return iso(weekMonday(periode)) <= s.today;
  if (/Q/.test(periode)) return addMonths(periodStart(`Q${periode.slice(6)}-${periode.slice(0, 4)}`), 3) <= s.today;
  return `${periode}-01` <= s.today;
}

const list = (file: DemoFile, key: string): Item[] => (file[key] as Item[] | undefined) ?? [];

/** The demo file moved so that its "today" is the given day (yyyy-mm-dd). */
export function shiftDemo(original: DemoFile, today: string): DemoFile {
  const s = shiftFor(today);
  const file = structuredClone(original);
  const dates = (o: Item, ...keys: string[]) => {
    for (const k of keys) if (typeof o[k] === "string") o[k] = shiftDate(s, o[k] as string);
  };
  for (const p of list(file, "projecten")) dates(p, "startdatum", "deadline");
  for (const p of list(file, "prioriteiten")) {
    p.kwartaal = shiftQuarter(s, p.kwartaal as string);
    dates(p, "startdatum", "deadline");
  }
  for (const k of list(file, "kpis")) {
    for (const d of (k.doelen as Item[] | undefined) ?? []) d.kwartaal = shiftQuarter(s, d.kwartaal as string);
    k.metingen = ((k.metingen as Item[] | undefined) ?? []).map((m) => {
      const p = m.periode as string;
      return { ...m, periode: /W/.test(p) ? shiftWeek(p, s.kpiWeeks) : /Q/.test(p) ? shiftQuarter(s, p, true) : shiftMonth(s, p) };
    }).filter((m) => measurable(s, m.periode));
  }
  for (const t of list(file, "taken")) {
    for (const x of [t, ...((t.subtaken as Item[] | undefined) ?? [])]) {
      dates(x, "deadline");
      if (typeof x.week === "string") x.week = shiftWeek(x.week, s.boardWeeks);
    }
  }
  file.uren = list(file, "uren").map((u) => ({ ...u, datum: shiftDate(s, u.datum as string) }))
    .filter((u) => (u.datum as string) <= s.today);
  file.weektaken = list(file, "weektaken").map((w) => ({ ...w, week: shiftWeek(w.week as string, s.boardWeeks) }));
  file.reflecties = list(file, "reflecties").map((r) => ({ ...r, periode: shiftPeriod(s, r.periode as string) }))
    .filter((r) => periodStart(r.periode as string) <= s.today);
  file.waarderingen = list(file, "waarderingen").map((w) => ({ ...w, periode: shiftPeriod(s, w.periode as string) }))
    .filter((w) => periodStart(w.periode as string) <= s.today);
  file.gesprekken = list(file, "gesprekken").map((g): Item => ({ ...g, datum: shiftDate(s, g.datum as string) }))
    .filter((g) => (g.datum as string) <= s.today || !g.afgerond);
  file.sessienotities = list(file, "sessienotities").map((n) => {
    const note: Item = { ...n, datum: shiftDate(s, n.datum as string) };
    note.actiepunten = ((n.actiepunten as Item[] | undefined) ?? []).map((a) => {
      const point = { ...a };
      dates(point, "deadline");
      return point;
    });
    return note;
  }).filter((n) => (n.datum as string) <= s.today);
  return file;
}

export function readDemo(): DemoFile {
  return JSON.parse(fs.readFileSync(DEMO_FILE, "utf8")) as DemoFile;
}
