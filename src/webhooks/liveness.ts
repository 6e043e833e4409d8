// Whether a worker process is alive, as PostgreSQL sees it: each process holds an advisory
// lock (its "slot") on a connection of its own for as long as it runs. A process that dies,
// even by kill -9, loses its connection and so its lock at once. A delivery under way records
// its slot; every worker regularly looks for deliveries whose slot nobody holds and takes them
// over (beheer.webhook_onderbroken_herstellen), and the jobs a dead process's graphile-worker
// pools had locked are released, instead of after graphile-worker's four-hour wait.
//
// When the database goes away (a restart, an outage) the lock goes with the connection. The
// process then takes the same slot again as soon as the database answers, retrying until it
// does: a worker without its lock looks dead to the others, which would take its deliveries
// over and send them a second time. Deliveries wait for the lock (ready()) before they begin.
import crypto from "node:crypto";
import pg from "pg";

/** The advisory lock's first key: 'Koer' (beheer.werker_leeft uses the same). */
const LOCK_SPACE = 1265591666;
/** How often a worker looks for deliveries of dead workers. */
export const SWEEP_INTERVAL_MS = 5000;
/** Waits between attempts to take the lock again: short, so the gap after an outage is too. */
const RETRY_MS = [100, 200, 400, 800, 1000];

export interface Liveness {
  /** The slot this process holds now (or last held, while it takes it again). */
  slot(): number;
  /** The slot, once this process holds it. */
  ready(): Promise<number>;
  /** Registers a graphile-worker pool of this process under its slot. */
  register(pool: string): Promise<void>;
  /** Takes over the deliveries of dead workers; returns how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export async function startLiveness(adminUrl: string, log: (line: string) => void): Promise<Liveness> {
  let slot = crypto.randomInt(1, 2 ** 31 - 1);
  let client: pg.Client | null = null;
  let stopped = false;
  let sweeping: Promise<number> | null = null;
  const pools = new Set<string>();
  let held!: Promise<number>;
  let markHeld!: (slot: number) => void;
  const waitForLock = () => { held = new Promise((resolve) => (markHeld = resolve)); held.catch(() => {}); };
  waitForLock();

  /** One attempt: a connection holding the slot's lock, with every pool registered under it. */
  const take = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: adminUrl, application_name: "koers-worker-liveness", connectionTimeoutMillis: 2000 });
    let lost = false;
    let live = false;
    const onLost = (why: string) => {
      if (lost || stopped) return;
      lost = true;
      if (client === c) client = null;
      c.end().catch(() => {});
      if (live) {
        log(`liveness connection lost (${why}); taking slot ${slot} again when the database answers`);
        waitForLock();
        void keepTrying();
      }
    };
    c.on("error", (e) => onLost(e.message));
    c.on("end", () => onLost("connection ended"));
    try {
      await c.connect();
      const { rows } = await c.query<{ ok: boolean }>("select pg_try_advisory_lock($1, $2) as ok", [LOCK_SPACE, slot]);
      if (!rows[0]!.ok) {
        // Our old session still holds it (the server has not noticed it is gone): a new slot.
        slot = crypto.randomInt(1, 2 ** 31 - 1);
        await c.query("select pg_advisory_lock($1, $2)", [LOCK_SPACE, slot]);
      }
      for (const pool of pools) await c.query("select beheer.werker_aanmelden($1, $2)", [pool, slot]);
    } catch (e) {
      lost = true;
      await c.end().catch(() => {});
      throw e;
    }
    if (lost) throw new Error("connection lost while taking the lock");
    live = true;
    client = c;
    markHeld(slot);
  };

  let trying = false;
  /** Takes the lock again, however long the database is away; stops only when the process does. */
  const keepTrying = async (): Promise<void> => {
    if (trying) return;
    trying = true;
    try {
      for (let attempt = 0; !stopped; attempt++) {
        try {
          await take();
          log(`liveness: holding slot ${slot} again`);
          return;
        } catch {
          await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]).unref());
        }
      }
    } finally {
      trying = false;
    }
  };

  await take();

  // On the liveness connection itself: a sweep needs no connection of its own.
  const sweep = async (): Promise<number> => {
    const c = client;
    if (!c) return 0;
    const { rows } = await c.query<{ n: number }>("select beheer.webhook_onderbroken_herstellen() as n");
    const n = rows[0]!.n;
    if (n > 0) log(`took over ${n} webhook ${n === 1 ? "delivery" : "deliveries"} of a worker that stopped`);
    return n;
  };
  const runSweep = () => {
    if (stopped || sweeping || !client) return;
    sweeping = sweep().catch((e) => { log(`sweep failed: ${(e as Error).message}`); return 0; })
      .finally(() => { sweeping = null; });
  };
  const timer = setInterval(runSweep, SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    slot: () => slot,
    ready: () => held,
    register: async (pool) => {
      pools.add(pool);
      await client?.query("select beheer.werker_aanmelden($1, $2)", [pool, slot]);
    },
    sweep: async () => {
      while (sweeping) await sweeping;
      return sweep();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await sweeping;
      await client?.end().catch(() => {});
    },
  };
}
