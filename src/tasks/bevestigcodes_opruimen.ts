// Hourly: confirmation codes are kept a day past their expiry (so a late second call still gets
// a clear "verlopen"), then removed.
import type { Task } from "graphile-worker";

const task: Task = async (_payload, helpers) => {
  const { rows } = await helpers.query<{ removed: number }>("select beheer.bevestigcodes_opruimen() as removed");
  helpers.logger.info(`removed ${rows[0]?.removed ?? 0} expired confirmation codes`);
};
export default task;
