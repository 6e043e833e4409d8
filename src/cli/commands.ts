// The command table: every command of the CLI, in the order the help and the README list them.
import type { Command } from "./command.ts";
import { setupCommands } from "./commands/setup.ts";
import { workCommands } from "./commands/work.ts";
import { webhookCommands } from "./commands/webhooks.ts";
import { dataCommands } from "./commands/data.ts";
import { warehouseCommands } from "./commands/warehouse.ts";

export const commands: readonly Command[] = [...setupCommands, ...workCommands, ...webhookCommands, ...warehouseCommands, ...dataCommands];
