import type { AisDecoderStats } from "../../domain/ais/index.ts";
import type { Transport } from "./metrics.ts";

export interface SubmitContext {
  /** Connection or sender id: multi-part messages are reassembled only within one source. */
  source: string;
  transport: Transport;
}

/** What a submit did with its lines; `stored` resolves once everything they produced is committed. */
export interface SubmitResult {
  lines: number;
  messages: number;
  fragments: number;
  rejected: number;
  /** Dropped lines by decoder reason (only with `detail`). */
  reasons: Record<string, number>;
  /** Valid fixes queued for storage. */
  positions: number;
  /** Position reports without a usable position (no fix, out of range, MMSI 0), stamped in the future, or jumps (below). */
  invalidPositions: number;
  /** Of those, positions farther from the ship's last fix than it can sail (position-jump.ts): counted, not stored. */
  jumpedPositions: number;
  statics: number;
  stored: Promise<void>;
}

/** What became of one position report: queued for storage, or why not. */
export const FIX_QUEUED = 0;
export const FIX_INVALID = 1;
export const FIX_FUTURE = 2;
export const FIX_JUMP = 3;
export type FixOutcome = typeof FIX_QUEUED | typeof FIX_INVALID | typeof FIX_FUTURE | typeof FIX_JUMP;

/** What one submit's reports came to: fixes by outcome, and static reports. */
export class SubmitTally {
  positions = 0;
  invalid = 0;
  future = 0;
  jumps = 0;
  statics = 0;

  fix(outcome: FixOutcome): void {
    if (outcome === FIX_QUEUED) this.positions++;
    else if (outcome === FIX_INVALID) this.invalid++;
    else if (outcome === FIX_FUTURE) this.future++;
    else this.jumps++;
  }

  result(lines: number, messages: number, stored: Promise<void>): SubmitResult {
    const { positions, jumps, statics } = this;
    return { lines, messages, fragments: 0, rejected: 0, reasons: {}, positions, invalidPositions: this.invalid + this.future + jumps, jumpedPositions: jumps, statics, stored };
  }
}

/** Adds to `result` the fragments and dropped lines (by reason) the decoder counted between two of its stats. */
export function addDecoderDetail(result: SubmitResult, before: AisDecoderStats, after: AisDecoderStats): void {
  result.fragments = after.fragments - before.fragments;
  result.rejected = after.rejected - before.rejected;
  for (const [reason, n] of Object.entries(after.reasons)) {
    const d = n - before.reasons[reason as keyof typeof before.reasons];
    if (d > 0) result.reasons[reason] = d;
  }
}
