// Confirmations running at once against the same objects. Every proposal is made first, then
// all confirmations are sent together; the door's pool is wide enough to run them all in the
// database at the same time. Every confirmed change must be present afterwards, the task
// history must hold one entry per change (none that reverts another's), a race on a unique key
// must give a correct answer, and no answer may be a 500.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { request, setupWorld, writeTwoStep, type HttpResult, type Member } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
const o = setupWorld({
  now: NOW,
  poolSize: 16,
  afterSetup: async (o) => {
    await o.db.sql`insert into app.brand_labels (org_id, naam) values (${o.w.org}, 'Koers')`;
  },
});

interface Write { path: string; member: Member; body: Record<string, unknown> }
interface Proposed extends Write { code: string; voorstel: Record<string, unknown> }

async function propose(w: Write): Promise<Proposed> {
  const r = await request(o.baseUrl, "POST", w.path, { apiKey: w.member.apiKey, body: { org_id: o.w.org, ...w.body } });
  assert.equal(r.status, 200, `proposal ${JSON.stringify(w.body)}: ${JSON.stringify(r.body)}`);
  return { ...w, code: r.body.bevestigcode, voorstel: r.body.voorstel };
}

/** Sends all confirmations at once; none may be a 500. */
async function confirmAtOnce(ws: Proposed[]): Promise<HttpResult[]> {
  const rs = await Promise.all(ws.map((w) => request(o.baseUrl, "POST", w.path,
    { apiKey: w.member.apiKey, body: { org_id: o.w.org, ...w.body, bevestigcode: w.code } })));
  rs.forEach((r, i) => assert.ok(r.status < 500, `${JSON.stringify(ws[i]!.body)}: ${r.status} ${JSON.stringify(r.body)}`));
  return rs;
}

function assertAllDone(rs: HttpResult[], ws: Proposed[]) {
  rs.forEach((r, i) => assert.deepEqual([r.status, r.body.uitgevoerd], [200, true],
    `${JSON.stringify(ws[i]!.body)}: ${JSON.stringify(r.body)}`));
}

/** A confirmation refused because the data changed since its proposal: 400, parameter bevestigcode. */
function isChangedSinceProposal(r: HttpResult): boolean {
  return r.status === 400 && r.body.fout?.code === "ongeldige_parameters" && r.body.fout?.parameter === "bevestigcode";
}

const members = () => o.w.members;

async function newTask(body: Record<string, unknown>): Promise<{ id: string; nummer: number }> {
  const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", members().eigenaar.apiKey, { org_id: o.w.org, ...body });
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  return confirmed.body.taak;
}

async function readTask(nummer: number) {
  const r = await request(o.baseUrl, "GET", "/api/v1/taken",
    { apiKey: members().eigenaar.apiKey, query: { org_id: o.w.org, nummer: String(nummer) } });
  assert.equal(r.status, 200);
  return r.body.taken[0];
}

async function history(nummer: number): Promise<{ soort: string; oud: unknown; nieuw: unknown }[]> {
  const r = await request(o.baseUrl, "GET", "/api/v1/taak-geschiedenis",
    { apiKey: members().eigenaar.apiKey, query: { org_id: o.w.org, nummer: String(nummer) } });
  assert.equal(r.status, 200);
  return r.body.geschiedenis;
}

const person = (m: Member) => ({ user_id: m.user_id, naam: m.name });

/**
 * Two transactions on connections of their own (as the app or an import writes): the first runs
 * `first` and holds its locks; the second runs `second`, which must come to wait on them (not
 * merely run later); then the first commits, and the second finishes and commits.
 */
async function secondWaitsForFirst(first: (c: postgres.Sql) => Promise<unknown>,
                                   second: (c: postgres.Sql) => postgres.PendingQuery<postgres.Row[]>, what: string) {
  const a = postgres(o.db.url, { max: 1, onnotice: () => {} }), b = postgres(o.db.url, { max: 1, onnotice: () => {} });
  try {
    const [{ pid }] = await b`select pg_backend_pid() as pid` as unknown as [{ pid: number }];
    await a`begin`;
    await b`begin`;
    await first(a);
    const waiting = second(b).execute();
    assert.ok(await waitsForLock(pid), what);
    await a`commit`;
    await waiting;
    await b`commit`;
  } finally {
    await a.end();
    await b.end();
  }
}

/** Whether the backend pid comes to wait on a lock within five seconds. */
async function waitsForLock(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const [s] = await o.db.sql`select wait_event_type from pg_stat_activity where pid = ${pid}`;
    if (s?.wait_event_type === "Lock") return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const TASK = "/api/v1/taak-bijwerken";

describe("taak_bijwerken confirmed at once on one task", () => {
  it("every field changed by its own confirmation is kept, with one history entry per change", async () => {
    for (let round = 0; round < 3; round++) {
      const task = await newTask({ omschrijving: `Ronde ${round}`, eigenaar_user_id: members().eigenaar.user_id,
        deadline: "2026-05-29", week: "deze", tags: ["Oud"], grootte: "klein" });
      const changes: [Member, Record<string, unknown>][] = [
        [members().eigenaar, { stand: "in_uitvoering" }],
        [members().admin, { deadline: "2026-06-30" }],
        [members().mt, { tags: ["Alpha", "Beta"] }],
        [members().eigenaar, { week: "volgende" }],
        [members().admin, { eigenaar_user_id: members().lid.user_id }],
        [members().mt, { inschatting_uren: 5 }],
        [members().eigenaar, { brand_label: "Koers" }],
        [members().admin, { herhalen: "maand" }],
      ];
      const ws = await Promise.all(changes.map(([member, c]) => propose({ path: TASK, member, body: { taak_id: task.id, ...c } })));
      assertAllDone(await confirmAtOnce(ws), ws);

      const t = await readTask(task.nummer);
      assert.deepEqual(
        [t.stand, t.deadline, t.tags, t.week, t.eigenaar, t.inschatting_uren, t.brand_label, t.herhalen],
        ["bezig", "2026-06-30", ["Alpha", "Beta"], "2026-W21", person(members().lid), 5, "Koers", "maand"], `round ${round}`);
      const changed = (await history(task.nummer)).filter((h) => h.soort !== "aangemaakt")
        .map((h) => [h.soort, h.oud, h.nieuw]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      assert.deepEqual(changed, [
        ["deadline", "2026-05-29", "2026-06-30"],
        ["eigenaar", person(members().eigenaar), person(members().lid)],
        ["stand", "open", "bezig"],
        ["tags", ["Oud"], ["Alpha", "Beta"]],
        ["week", "2026-W20", "2026-W21"],
      ], `round ${round}: one entry per change, none reverting another`);
    }
  });

  it("a repeating task ticked off beside other changes stays done, with exactly one next occurrence", async () => {
    for (const tick of ["afvinken", "voltooid", "both"] as const) {
      const task = await newTask({ omschrijving: `Herhaal ${tick}`, herhalen: "week", deadline: "2026-05-20",
        eigenaar_user_id: members().eigenaar.user_id });
      const others = await Promise.all([
        propose({ path: TASK, member: members().admin, body: { taak_id: task.id, tags: ["Wekelijks"] } }),
        propose({ path: TASK, member: members().mt, body: { taak_id: task.id, brand_label: "Koers" } }),
        propose({ path: TASK, member: members().eigenaar, body: { taak_id: task.id, inschatting_uren: 2 } }),
      ]);
      const done = tick === "afvinken" ? [] : [await propose({ path: TASK, member: members().lid, body: { taak_id: task.id, stand: "voltooid" } })];
      const [rs] = await Promise.all([
        confirmAtOnce([...others, ...done]),
        tick === "voltooid" ? null : o.db.sql`select beheer.taak_afvinken(${o.w.org}, ${task.nummer}, ${members().mt.user_id})`,
      ]);
      assertAllDone(rs.slice(0, others.length), others);
      if (done.length) {
        const r = rs.at(-1)!;
        // Ticked off in the app first, the confirmation's proposal ("open -> klaar") no longer holds.
        assert.ok(r.body.uitgevoerd === true || (tick === "both" && isChangedSinceProposal(r)), JSON.stringify(r.body));
      }
      const t = await readTask(task.nummer);
      assert.deepEqual([t.stand, t.tags, t.brand_label, t.inschatting_uren], ["klaar", ["Wekelijks"], "Koers", 2], tick);
      const next = await o.db.sql`select nummer, stand, deadline::text from app.taken where org_id = ${o.w.org} and herhaling_van = ${task.id}`;
      assert.equal(next.length, 1, `${tick}: exactly one next occurrence`);
      assert.deepEqual([next[0]!.stand, next[0]!.deadline], ["open", "2026-05-27"]);
      const stands = (await history(task.nummer)).filter((h) => h.soort === "stand").map((h) => [h.oud, h.nieuw]);
      assert.deepEqual(stands, [["open", "klaar"]], `${tick}: one stand change, not reverted`);
    }
  });
});

describe("dagprioriteiten_zetten confirmed at once", () => {
  it("three confirmations setting prioriteit_1, _2 and _3 of one day each keep their slot", async () => {
    for (const datum of ["2026-05-14", "2026-05-15", "2026-05-16"]) {
      const ws = await Promise.all([1, 2, 3].map((n) => propose({ path: "/api/v1/dagprioriteiten-zetten", member: members().lid,
        body: { datum, [`prioriteit_${n}`]: `Taak ${n}` } })));
      assertAllDone(await confirmAtOnce(ws), ws);
      const [d] = await o.db.sql`select prioriteit_1, prioriteit_2, prioriteit_3 from app.dagprioriteiten
                                 where org_id = ${o.w.org} and user_id = ${members().lid.user_id} and datum = ${datum}`;
      assert.deepEqual([d!.prioriteit_1, d!.prioriteit_2, d!.prioriteit_3], ["Taak 1", "Taak 2", "Taak 3"], datum);
    }
  });
});

describe("a new tag created by two confirmations at once", () => {
  it("both succeed and share one tag, on task updates and on new tasks (also two new tags in crossed order)", async () => {
    for (let round = 0; round < 15; round++) {
      const tag = `Nieuw ${round}`;
      const a = await newTask({ omschrijving: `Tag A ${round}` });
      const b = await newTask({ omschrijving: `Tag B ${round}` });
      const ws = await Promise.all([
        propose({ path: TASK, member: members().eigenaar, body: { taak_id: a.id, tags: [tag] } }),
        propose({ path: TASK, member: members().admin, body: { taak_id: b.id, tags: [tag, `Ook ${round}`] } }),
        propose({ path: "/api/v1/taak-toevoegen", member: members().mt, body: { omschrijving: `Tag C ${round}`, tags: [`Ook ${round}`, tag] } }),
        propose({ path: "/api/v1/taak-toevoegen", member: members().lid, body: { omschrijving: `Tag D ${round}`, tags: [tag] } }),
      ]);
      assertAllDone(await confirmAtOnce(ws), ws);
      const tags = await o.db.sql`select naam from app.tags where org_id = ${o.w.org} and lower(naam) in (${tag.toLowerCase()}, ${`ook ${round}`})`;
      assert.deepEqual(tags.map((t) => t.naam).sort(), [tag, `Ook ${round}`].sort());
      const tagged = await o.db.sql`select t.omschrijving from app.taak_tags tt join app.taken t on t.org_id = tt.org_id and t.id = tt.taak_id
                                    join app.tags g on g.org_id = tt.org_id and g.id = tt.tag_id
                                    where tt.org_id = ${o.w.org} and g.naam = ${tag} order by 1`;
      assert.deepEqual(tagged.map((t) => t.omschrijving), [`Tag A ${round}`, `Tag B ${round}`, `Tag C ${round}`, `Tag D ${round}`]);
    }
  });
  it("the same tag in another spelling at once: one tag, and never a 500", async () => {
    for (let round = 0; round < 5; round++) {
      const a = await newTask({ omschrijving: `Spelling A ${round}` });
      const b = await newTask({ omschrijving: `Spelling B ${round}` });
      const ws = await Promise.all([
        propose({ path: TASK, member: members().eigenaar, body: { taak_id: a.id, tags: [`Zelfde${round}`] } }),
        propose({ path: TASK, member: members().admin, body: { taak_id: b.id, tags: [`zelfde${round}`] } }),
      ]);
      const rs = await confirmAtOnce(ws);
      // The later one finds the tag in the other spelling: what its proposal showed no longer holds.
      for (const r of rs) assert.ok(r.body.uitgevoerd === true || isChangedSinceProposal(r), JSON.stringify(r.body));
      assert.ok(rs.some((r) => r.body.uitgevoerd === true));
      const [row] = await o.db.sql`select count(*)::int as n from app.tags where org_id = ${o.w.org} and lower(naam) = ${`zelfde${round}`}`;
      assert.equal(row!.n, 1);
    }
  });
});

describe("kpi_meting_invoeren confirmed at once for one period", () => {
  it("no 500; each answer is done or refused as changed since the proposal; the stored value is a confirmed one", async () => {
    const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/kpi-aanmaken", members().eigenaar.apiKey, { org_id: o.w.org,
      naam: "Leads", eigenaar_user_id: members().lid.user_id, meetsoort: "teller", cadans: "week" });
    const kpi = confirmed.body.kpi.id;
    for (const periode of ["2026-W18", "2026-W19", "2026-W20"]) {
      const ws = await Promise.all([10, 20, 30, 40, 50, 60].map((waarde, i) => propose({ path: "/api/v1/kpi-meting-invoeren",
        member: i % 2 ? members().lid : members().eigenaar, body: { kpi_id: kpi, waarde, periode, toelichting: "Gemeten" } })));
      const rs = await confirmAtOnce(ws);
      for (const r of rs) assert.ok(r.body.uitgevoerd === true || isChangedSinceProposal(r), JSON.stringify(r.body));
      const done = rs.flatMap((r, i) => (r.body.uitgevoerd ? [ws[i]!.body.waarde] : []));
      assert.ok(done.length >= 1, periode);
      const rows = await o.db.sql`select waarde::float as waarde from app.kpi_metingen
                                  where org_id = ${o.w.org} and kpi_id = ${kpi} and periode = ${periode}`;
      assert.equal(rows.length, 1);
      assert.ok(done.includes(rows[0]!.waarde), `${periode}: stored ${rows[0]!.waarde}, confirmed ${done}`);
    }
  });
});

describe("creations confirmed at once", () => {
  const creations: { operation: string; path: string; body: (i: number, tag: string) => Record<string, unknown>;
                     count: (tag: string) => Promise<number[]> }[] = [
    { operation: "taak_toevoegen", path: "/api/v1/taak-toevoegen",
      body: (i, tag) => ({ omschrijving: `${tag} ${i}`, tags: [tag] }),
      count: async (tag) => (await o.db.sql`select count(*)::int as n from app.taken where org_id = ${o.w.org}
        and omschrijving like ${tag + " %"} group by omschrijving order by omschrijving`).map((r) => r.n) },
    { operation: "prioriteit_aanmaken", path: "/api/v1/prioriteit-aanmaken",
      body: (i, tag) => ({ titel: `${tag} ${i}`, soort: i % 2 ? "okr" : "rock", eigenaar_user_id: Object.values(members())[i % 4]!.user_id }),
      count: async (tag) => (await o.db.sql`select count(*)::int as n from app.prioriteiten where org_id = ${o.w.org}
        and titel like ${tag + " %"} group by titel`).map((r) => r.n) },
    { operation: "kpi_aanmaken", path: "/api/v1/kpi-aanmaken",
      body: (i, tag) => ({ naam: `${tag} ${i}`, eigenaar_user_id: members().lid.user_id, meetsoort: "stand", cadans: "month" }),
      count: async (tag) => (await o.db.sql`select count(*)::int as n from app.kpis where org_id = ${o.w.org}
        and naam like ${tag + " %"} group by naam`).map((r) => r.n) },
    { operation: "project_aanmaken", path: "/api/v1/project-aanmaken",
      body: (i, tag) => ({ titel: `${tag} ${i}`, eigenaar_user_id: members().mt.user_id }),
      count: async (tag) => (await o.db.sql`select count(*)::int as n from app.projecten where org_id = ${o.w.org}
        and titel like ${tag + " %"} group by titel`).map((r) => r.n) },
    { operation: "weektaak_toevoegen", path: "/api/v1/weektaak-toevoegen",
      body: (i, tag) => ({ titel: `${tag} ${i}`, voor_user_id: members().lid.user_id }),
      count: async (tag) => (await o.db.sql`select count(*)::int as n from app.weektaken where org_id = ${o.w.org}
        and titel like ${tag + " %"} group by titel`).map((r) => r.n) },
  ];
  for (const c of creations) {
    it(`${c.operation}: ten at once are all written, each exactly once`, async () => {
      const tag = `Tien ${c.operation}`;
      const ws = await Promise.all(Array.from({ length: 10 }, (_, i) =>
        propose({ path: c.path, member: i % 2 ? members().admin : members().eigenaar, body: c.body(i, tag) })));
      assertAllDone(await confirmAtOnce(ws), ws);
      assert.deepEqual(await c.count(tag), Array(10).fill(1));
    });
    it(`${c.operation}: one code confirmed five times at once writes once, and answers the same each time`, async () => {
      const tag = `Dubbel ${c.operation}`;
      const w = await propose({ path: c.path, member: members().eigenaar, body: c.body(0, tag) });
      const rs = await confirmAtOnce(Array(5).fill(w));
      assertAllDone(rs, Array(5).fill(w));
      for (const r of rs.slice(1)) assert.deepEqual(r.body, rs[0]!.body);
      assert.deepEqual(await c.count(tag), [1]);
    });
  }
  it("tasks created at once get distinct numbers", async () => {
    const numbers = await o.db.sql`select nummer from app.taken where org_id = ${o.w.org}`;
    assert.equal(new Set(numbers.map((r) => r.nummer)).size, numbers.length);
  });
});

describe("hours booked on one task by two transactions at once", () => {
  it("both count in the task's besteed_uren: the second waits for the first and counts its hours too", async () => {
    const task = await newTask({ omschrijving: "Uren tegelijk" });
    const book = (c: postgres.Sql, uren: number, who: Member) => c`insert into app.uren (org_id, user_id, datum, uren, taak_id)
      values (${o.w.org}, ${who.user_id}, '2026-05-13', ${uren}, ${task.id})`;
    // The second booking waits on the first's lock of the task: without it its count would miss
    // the first one's hours.
    await secondWaitsForFirst((c) => book(c, 1.5, members().lid), (c) => book(c, 2.25, members().mt),
      "the second booking waits for the first transaction");
    assert.equal((await readTask(task.nummer)).besteed_uren, 3.75);
  });
});

describe("tasks of one rock ticked off by two transactions at once", () => {
  it("both count in the rock's voortgang: the second waits for the first and counts its task too", async () => {
    const [rock] = await o.db.sql`insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start)
      values (${o.w.org}, 'rock', 'Twee tegelijk', ${members().eigenaar.user_id}, '2026-04-01') returning id`;
    const tasks = await o.db.sql`insert into app.taken (org_id, omschrijving, prioriteit_id, stand, inschatting_uren)
      values (${o.w.org}, 'Een', ${rock!.id}, 'open', 1), (${o.w.org}, 'Twee', ${rock!.id}, 'open', 1) returning id`;
    const tickOff = (c: postgres.Sql, id: string) => c`update app.taken set stand = 'voltooid' where org_id = ${o.w.org} and id = ${id}`;
    // The second tick waits on the first's lock of the priority (the two tasks are different
    // rows): without it its count would miss the first one's task.
    await secondWaitsForFirst((c) => tickOff(c, tasks[0]!.id), (c) => tickOff(c, tasks[1]!.id),
      "the second tick waits for the first transaction");
    const r = await request(o.baseUrl, "GET", "/api/v1/prioriteiten",
      { apiKey: members().eigenaar.apiKey, query: { org_id: o.w.org, kwartaal: "Q2-2026" } });
    assert.equal(r.status, 200);
    const p = r.body.prioriteiten.find((x: { titel: string }) => x.titel === "Twee tegelijk");
    assert.equal(p.voortgang, 100);
  });
});

describe("one project's tasks ticked off and hours booked by two transactions at once", () => {
  it("both count in the project's open_taken and uren: the second waits for the first", async () => {
    const [project] = await o.db.sql`insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, aangemaakt_door)
      values (${o.w.org}, 'Samen tegelijk', ${members().eigenaar.user_id}, '2026-01-01', ${members().eigenaar.user_id}) returning id`;
    const tasks = await o.db.sql`insert into app.taken (org_id, omschrijving, project_id, stand)
      values (${o.w.org}, 'Een', ${project!.id}, 'open'), (${o.w.org}, 'Twee', ${project!.id}, 'open'),
             (${o.w.org}, 'Drie', ${project!.id}, 'open') returning id`;
    const tickOff = (c: postgres.Sql, id: string) => c`update app.taken set stand = 'voltooid' where org_id = ${o.w.org} and id = ${id}`;
    const book = (c: postgres.Sql, uren: number, who: Member, taak: string | null) => c`insert into app.uren
      (org_id, user_id, datum, uren, taak_id, project_id)
      values (${o.w.org}, ${who.user_id}, '2026-05-13', ${uren}, ${taak}, ${taak ? null : project!.id})`;
    // Different rows each time; the second waits on the first's lock of the project: without it
    // its count would miss the first one's change.
    await secondWaitsForFirst((c) => tickOff(c, tasks[0]!.id), (c) => tickOff(c, tasks[1]!.id),
      "the second tick waits for the first transaction");
    await secondWaitsForFirst((c) => book(c, 1.5, members().lid, tasks[2]!.id), (c) => book(c, 2.25, members().mt, null),
      "the second booking waits for the first transaction");
    const r = await request(o.baseUrl, "GET", "/api/v1/projecten", { apiKey: members().eigenaar.apiKey, query: { org_id: o.w.org } });
    assert.equal(r.status, 200);
    const p = r.body.projecten.find((x: { titel: string }) => x.titel === "Samen tegelijk");
    assert.deepEqual([p.open_taken, p.uren], [1, 3.75]);
  });
});
