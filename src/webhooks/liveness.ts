// Whether a worker process is alive, as PostgreSQL sees it: each process holds an advisory
// lock (its "slot") on a connection of its own for as long as it runs. A process that dies,
// even by kill -9, loses its connection and so its lock at once. A delivery under way records
// its slot; every worker regularly looks for deliveries whose slot nobody holds and takes them
// over (beheer.webhook_onderbroken_herstellen), and the jobs a dead process's graphile-worker
// pools had locked are released, instead of after graphile-worker's four-hour wait.
import crypto from "node:crypto";
import pg from "pg";

/** The advisory lock's first key: 'Koer' (beheer.werker_leeft uses the same). */
const LOCK_SPACE = 1265591666;
/** How often a worker looks for deliveries of dead workers. */
export const SWEEP_INTERVAL_MS = 5000;

export interface Liveness {
  /** The slot this process holds now. */
  slot(): number;
  /** Registers a graphile-worker pool of this process under its slot. */
  register(pool: string): Promise<void>;
  /** Takes over the deliveries of dead workers; returns how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export async function startLiveness(adminUrl: string, log: (line: string) => void): Promise<Liveness> {
  let slot = 0;
  let client: pg.Client | null = null;
  let stopped = false;
  let sweeping: Promise<number> | null = null;
  const pools = new Set<string>();

  const hold = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: adminUrl, application_name: "koers-worker-liveness" });
    const next = crypto.randomInt(1, 2 ** 31 - 1);
    c.on("error", (e) => {
      if (stopped) return;
      log(`liveness connection lost (${e.message}); taking a new slot`);
      client = null;
      setTimeout(() => void hold().catch((err) => log(`liveness: ${(err as Error).message}`)), 1000).unref();
    });
    await c.connect();
    await c.query("select pg_advisory_lock($1, $2)", [LOCK_SPACE, next]);
    // After a reconnect, the pools move to the new slot.
    for (const pool of pools) await c.query("select beheer.werker_aanmelden($1, $2)", [pool, next]);
    client = c;
    slot = next;
  };
  await hold();

  // On the liveness connection itself: a sweep needs no connection of its own.
  const sweep = async (): Promise<number> => {
    if (!client) return 0;
    const { rows } = await client.query<{ n: number }>("select beheer.webhook_onderbroken_herstellen() as n");
    const n = rows[0]!.n;
    if (n > 0) log(`took over ${n} webhook ${n === 1 ? "delivery" : "deliveries"} of a worker that stopped`);
    return n;
  };
  const runSweep = () => {
    if (stopped || sweeping) return;
    sweeping = sweep().catch((e) => { log(`sweep failed: ${(e as Error).message}`); return 0; })
      .finally(() => { sweeping = null; });
  };
  const timer = setInterval(runSweep, SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    slot: () => slot,
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
