// Hourly: the webhook delivery log is kept for a number of days (KOERS_RETENTION_WEBHOOK_DAYS,
// default 30): older attempts, and finished messages without attempts left, are removed in
// batches, like the other logs (trim_logs).
import type { Task } from "graphile-worker";

const BATCH = 5000;

export function trimWebhookLog(days: number): Task {
  return async (_payload, helpers) => {
    const total: Record<string, number> = {};
    for (;;) {
      const { rows } = await helpers.query<{ removed: Record<string, number> }>(
        "select beheer.webhook_log_inkorten($1, $2) as removed", [days, BATCH]);
      const removed = rows[0]!.removed;
      for (const [table, n] of Object.entries(removed)) total[table] = (total[table] ?? 0) + n;
      if (Object.values(removed).every((n) => n < BATCH)) break;
    }
    helpers.logger.info(`retention: removed ${Object.entries(total).map(([t, n]) => `${n} from ${t}`).join(", ")}`);
  };
}
