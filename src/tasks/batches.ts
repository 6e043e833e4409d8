// Retention in batches, for the hourly trimming jobs (trim_logs, trim_webhook_log): a statement
// that removes at most BATCH rows of each table and returns {table: rows removed} runs again
// until a round removes less than a batch everywhere, so no statement holds locks for long.
import type { JobHelpers } from "graphile-worker";

export const BATCH = 5000;

/** Runs `query` (its last parameter is the batch size) until it is done; logs what it removed. */
export async function trimInBatches(helpers: JobHelpers, query: string, values: unknown[]): Promise<void> {
  const total: Record<string, number> = {};
  for (;;) {
    const { rows } = await helpers.query<{ removed: Record<string, number> }>(query, [...values, BATCH]);
    const removed = rows[0]!.removed;
    for (const [table, n] of Object.entries(removed)) total[table] = (total[table] ?? 0) + n;
    if (Object.values(removed).every((n) => n < BATCH)) break;
  }
  helpers.logger.info(`retention: removed ${Object.entries(total).map(([t, n]) => `${n} from ${t}`).join(", ")}`);
}
