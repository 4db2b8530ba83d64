import { isPlanId, PLAN_IDS, type PlanId } from "../domain/plans.ts";
import { CliError, EXIT_BAD_ARGUMENT } from "./cli-error.ts";

/** `--plan`: one of the tiers, or null when absent and optional. */
export function planArgument(value: string | undefined, required: boolean): PlanId | null {
  if (value === undefined) {
    if (required) throw new CliError(`--plan is required (one of ${PLAN_IDS.join(", ")})`, EXIT_BAD_ARGUMENT);
    return null;
  }
  if (!isPlanId(value)) throw new CliError(`--plan ${value}: unknown plan; use one of ${PLAN_IDS.join(", ")}`, EXIT_BAD_ARGUMENT);
  return value;
}
