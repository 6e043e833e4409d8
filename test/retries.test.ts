// Conflicts between transactions inside a call: PostgreSQL breaks the call's operation off with
// a deadlock (40P01) or a serialization failure (40001). api.aanroep tries the operation again
// a few times (its block is a subtransaction), then answers 503 tijdelijk_onbeschikbaar; never
// 500, the write applied once, and the log row counts the tries (pogingen).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { request, setupWorld, writeTwoStep } from "./helpers.ts";

const NOW = "2026-05-14T10:00:00+02:00";
const o = setupWorld({ now: NOW });
const TASK = "/api/v1/taak-bijwerken";

async function newTask(omschrijving: string): Promise<{ id: string; nummer: number }> {
  const { confirmed } = await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", o.w.members.eigenaar.apiKey,
    { org_id: o.w.org, omschrijving, eigenaar_user_id: o.w.members.eigenaar.user_id });
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  return confirmed.body.taak;
}

async function propose(taak_id: string, omschrijving: string) {
  const body = { org_id: o.w.org, taak_id, omschrijving };
  const r = await request(o.baseUrl, "POST", TASK, { apiKey: o.w.members.eigenaar.apiKey, body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { body, code: r.body.bevestigcode as string };
}

const confirm = (p: { body: Record<string, unknown>; code: string }, requestId: string) =>
  request(o.baseUrl, "POST", TASK, { apiKey: o.w.members.eigenaar.apiKey, body: { ...p.body, bevestigcode: p.code },
                                     headers: { "x-request-id": requestId } });

async function logRow(requestId: string) {
  const [r] = await o.db.sql`select status, fout_code, fout_detail, pogingen from app_private.aanroepen
                             where org_id = ${o.w.org} and verzoek_id = ${requestId}`;
  assert.ok(r, `a log row for ${requestId}`);
  return r;
}

async function state(taak: { id: string; nummer: number }) {
  const [t] = await o.db.sql`select omschrijving from app.taken where org_id = ${o.w.org} and id = ${taak.id}`;
  const [h] = await o.db.sql`select count(*)::int as n from app.taak_geschiedenis
                             where org_id = ${o.w.org} and taak_id = ${taak.id} and soort = 'titel'`;
  return { omschrijving: t!.omschrijving as string, historyEntries: h!.n as number };
}

/** Waits until a backend of the door role waits for a lock (at most 10 s). */
async function doorWaitsForLock() {
  for (let i = 0; i < 200; i++) {
    const [r] = await o.db.sql`select count(*)::int as n from pg_stat_activity
                               where datname = current_database() and usename like 'koers_door%' and wait_event_type = 'Lock'`;
    if (r!.n > 0) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("the door call never waited for the lock");
}

describe("a deadlock inside a call", () => {
  it("breaks the operation off, which is tried again and written once", async () => {
    const taak = await newTask("Offerte maken");
    const p = await propose(taak.id, "Offerte versturen");
    // Another transaction holds the task and, once the confirmation waits for the task while
    // holding its code, asks for the code: a real deadlock. This transaction waits 20 s before
    // it looks for deadlocks, the door's 1 s (the default): the door's operation is broken off.
    let answer: Promise<Awaited<ReturnType<typeof confirm>>> | undefined;
    await o.db.sql.begin(async (tx) => {
      await tx`set local deadlock_timeout = '20s'`;
      await tx`select 1 from app.taken where org_id = ${o.w.org} and id = ${taak.id} for update`;
      answer = confirm(p, "deadlock-1");
      await doorWaitsForLock();
      await tx`select 1 from app_private.bevestigcodes where org_id = ${o.w.org} and code = ${p.code} for update`;
    });
    const r = await answer!;
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.uitgevoerd, true);
    assert.equal(r.body.taak.omschrijving, "Offerte versturen");
    assert.deepEqual(await state(taak), { omschrijving: "Offerte versturen", historyEntries: 1 });
    const log = await logRow("deadlock-1");
    // Usually the second try; on a busy machine the other transaction may not have taken the
    // code before the retry takes it again, and the two meet once more.
    assert.deepEqual([log.status, log.fout_code], [200, null]);
    assert.ok(log.pogingen >= 2, `tried again: ${log.pogingen}`);
    assert.match(log.fout_detail, /^40P01: deadlock detected/);
  });
});

describe("a serialization failure inside a call", () => {
  // A trigger on the task that raises 40001 as long as a counter outside any transaction (a
  // sequence) is below a limit: each try of the operation meets it once.
  const force = async (times: number) => {
    await o.db.sql.unsafe(`
      drop trigger if exists test_serialisatie on app.taken;
      drop sequence if exists public.test_pogingen;
      create sequence public.test_pogingen;
      grant usage on sequence public.test_pogingen to koers_door;
      create or replace function public.test_serialisatie() returns trigger language plpgsql as $$
      begin
        if nextval('public.test_pogingen') <= ${times} then
          raise exception 'could not serialize access (forced by the test)' using errcode = '40001';
        end if;
        return new;
      end $$;
      create trigger test_serialisatie before update on app.taken for each row execute function public.test_serialisatie();`);
  };
  const unforce = () => o.db.sql.unsafe(`drop trigger if exists test_serialisatie on app.taken`);

  it("is tried again and written once", async () => {
    const taak = await newTask("Factuur maken");
    const p = await propose(taak.id, "Factuur sturen");
    await force(1);
    try {
      const r = await confirm(p, "serialisatie-1");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.taak.omschrijving, "Factuur sturen");
    } finally {
      await unforce();
    }
    assert.deepEqual(await state(taak), { omschrijving: "Factuur sturen", historyEntries: 1 });
    const log = await logRow("serialisatie-1");
    assert.deepEqual([log.status, log.fout_code, log.pogingen], [200, null, 2]);
  });

  it("that keeps coming answers 503 tijdelijk_onbeschikbaar after three tries, with nothing written", async () => {
    const taak = await newTask("Klant bellen");
    const p = await propose(taak.id, "Klant mailen");
    await force(1000);
    let r;
    try {
      r = await confirm(p, "serialisatie-2");
    } finally {
      await unforce();
    }
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.equal(r.body.fout.code, "tijdelijk_onbeschikbaar");
    assert.ok(Number(r.headers.get("retry-after")) >= 1, "a 503 says when to try again");
    assert.deepEqual(await state(taak), { omschrijving: "Klant bellen", historyEntries: 0 });
    const log = await logRow("serialisatie-2");
    assert.deepEqual([log.status, log.fout_code, log.pogingen], [503, "tijdelijk_onbeschikbaar", 3]);
    assert.match(log.fout_detail, /^40001: could not serialize access/);
    // The code was not used up: the same confirmation, sent again, writes once.
    const again = await confirm(p, "serialisatie-3");
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(await state(taak), { omschrijving: "Klant mailen", historyEntries: 1 });
  });
});

describe("the rate limit's cleanup of ended windows", () => {
  it("skips a row another call holds instead of waiting for it (two cleanups at once could deadlock)", async () => {
    const { createApiKey, parseApiKey } = await import("../src/api-key.ts");
    const k = createApiKey();
    await o.db.sql`select beheer.sleutel_aanmaken(${o.w.org}, ${o.w.members.eigenaar.user_id}, ${k.hash}, ${k.hint})`;
    const { default: postgres } = await import("postgres");
    const holder = postgres(o.db.url, { max: 1, onnotice: () => {} });
    const caller = postgres(o.db.url, { max: 1, onnotice: () => {} });
    try {
      // Another call's count of an ended window, locked as its own update would lock it.
      await holder`begin`;
      await holder`insert into app_private.tempo (wie, pid, tot, aantal) values ('adres:elders', -1, 0, 1)`;
      await holder`commit`;
      await holder`begin`;
      await holder`select 1 from app_private.tempo where wie = 'adres:elders' for update`;
      // A call that counts the first of a window and, by this seed, cleans up (1 in 100 do).
      await caller`select set_config('koers.limiet', '1000', false), set_config('koers.limiet_venster', '60', false)`;
      await caller`set lock_timeout = '3s'`;
      await caller`select setseed(0.0785)`;
      const [row] = await caller<{ a: { status: number } }[]>`select api.aanroep('rest', ${parseApiKey(k.key)!}, 'wie_ben_ik', '{}'::jsonb, null, 'opruimen', '127.0.0.1') as a`;
      assert.equal(row!.a.status, 200, JSON.stringify(row));
      await holder`rollback`;
      const [held] = await o.db.sql<{ n: number }[]>`select count(*)::int as n from app_private.tempo where wie = 'adres:elders'`;
      assert.equal(held!.n, 1, "the held row was left for a later cleanup");
    } finally {
      await holder`rollback`.catch(() => {});
      await o.db.sql`delete from app_private.tempo where wie = 'adres:elders'`;
      await holder.end();
      await caller.end();
    }
  });
});
