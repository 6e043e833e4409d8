// Hourly: retention. The organisation's call log, calls without an organisation, the audit log,
// used or expired confirmation codes and the AI connection's expired sign-in rows are trimmed by
// age, in batches, so the database does not grow forever and no statement holds locks for long.
import type { Task } from "graphile-worker";

export interface Retention {
  /** Days the organisation's call log is kept. */
  logDays: number;
  /** Days calls without an organisation (no or an unknown key) are kept. */
  anonymousDays: number;
  /** Days the audit log is kept. */
  auditDays: number;
}

const BATCH = 5000;

export function trimLogs(retention: Retention): Task {
  return async (_payload, helpers) => {
    const total: Record<string, number> = {};
    for (;;) {
      const { rows } = await helpers.query<{ removed: Record<string, number> }>(
        "select beheer.bewaartermijnen_toepassen($1, $2, $3, $4) || beheer.aanmeldingen_opruimen($4) as removed",
        [retention.logDays, retention.anonymousDays, retention.auditDays, BATCH]);
      const removed = rows[0]!.removed;
      for (const [table, n] of Object.entries(removed)) total[table] = (total[table] ?? 0) + n;
      if (Object.values(removed).every((n) => n < BATCH)) break;
    }
    helpers.logger.info(`retention: removed ${Object.entries(total).map(([t, n]) => `${n} from ${t}`).join(", ")}`);
  };
}
