/**
 * Importers that leave bad rows out count them by reason, so an operator sees what
 * was dropped and why instead of a silently shorter list.
 */
import { parseImo } from "../../domain/identifiers.ts";

export function countReason(counts: Record<string, number>, reason: string): void {
  counts[reason] = (counts[reason] ?? 0) + 1;
}

/** A row's IMO number, or the reason the row has none: blank, a wrong check digit, or not IMO-shaped. */
export function imoOrRejection(raw: string): number | "imo_missing" | "imo_check_digit" | "imo_malformed" {
  if (raw === "") return "imo_missing";
  const imo = parseImo(raw);
  if (imo !== null) return imo;
  return /^(IMO\s*)?\d{7}$/i.test(raw) ? "imo_check_digit" : "imo_malformed";
}
