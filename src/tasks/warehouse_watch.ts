// Every minute: notes when each warehouse login was last seen connected to this server
// (beheer.warehouse_bijhouden, from pg_stat_activity), for koers warehouse list.
import type { Task } from "graphile-worker";

export function warehouseWatch(): Task {
  return async (_payload, helpers) => {
    await helpers.query("select beheer.warehouse_bijhouden()");
  };
}
