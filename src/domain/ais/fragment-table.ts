// Multi-part reassembly: the fragments of messages sent over several sentences, held
// until the last one arrives, a fragment breaks the order, or the timeout passes.

import { R_EMPTY_PAYLOAD, R_FRAGMENT_DUPLICATE, R_FRAGMENT_MISSING, R_FRAGMENT_OUT_OF_ORDER, R_PENDING_OVERFLOW } from "./reasons.ts";

/** An incomplete message, and the envelope of its first sentence. */
export interface PendingMessage {
  /** Fragment count announced by the sentences. */
  total: number;
  /** Number of the next expected fragment. */
  next: number;
  /** Concatenated payload so far. */
  payload: string;
  /** Payload of fragment 1 (to tell a duplicate from a new message). */
  first: string;
  /** receivedAt of fragment 1 (timeout base). */
  firstAt: number;
  time: number;
  station: string | null;
  channel: string;
  own: boolean;
}

/** `add()`: the fragment is held, waiting for the next. */
export const FRAGMENT_HELD = -1;

export class FragmentTable {
  readonly timeout: number;
  readonly maxPending: number;
  /** Incomplete messages by reassembly key, oldest first. */
  readonly pending = new Map<string, PendingMessage>();
  /** Counts of the event reasons (index into AIS_REASONS), shared with the decoder's. */
  readonly reasonCounts: Float64Array;
  lastSweep = Number.NEGATIVE_INFINITY;

  constructor(timeout: number, maxPending: number, reasonCounts: Float64Array) {
    this.timeout = timeout;
    this.maxPending = maxPending;
    this.reasonCounts = reasonCounts;
  }

  /**
   * Adds fragment `num` of `total` under `key`. Returns the completed message, FRAGMENT_HELD,
   * or the reason (a line reason) the fragment is rejected for. Events on the way (a
   * message that lost its tail, a duplicate, an overflow) are counted here.
   */
  add(key: string, num: number, total: number, payload: string, now: number, time: number, station: string | null, channel: string, own: boolean): PendingMessage | number {
    const map = this.pending;
    let pend = map.get(key);
    if (pend !== undefined && now - pend.firstAt > this.timeout) {
      map.delete(key);
      this.reasonCounts[R_FRAGMENT_MISSING]!++;
      pend = undefined;
    }

    if (num === 1) {
      if (payload.length === 0) return R_EMPTY_PAYLOAD;
      if (pend !== undefined) {
        // A new fragment 1 for the same key: an exact repeat of the pending one is a
        // duplicate from a second receiver; anything else means the old message lost
        // its tail. Either way the new fragment starts over.
        const dup = pend.next === 2 && pend.first === payload;
        this.reasonCounts[dup ? R_FRAGMENT_DUPLICATE : R_FRAGMENT_MISSING]!++;
        map.delete(key);
      }
      if (map.size >= this.maxPending) {
        const oldest = map.keys().next();
        if (oldest.done !== true) map.delete(oldest.value);
        this.reasonCounts[R_PENDING_OVERFLOW]!++;
      }
      map.set(key, { total, next: 2, payload, first: payload, firstAt: now, time, station, channel, own });
      return FRAGMENT_HELD;
    }

    if (pend === undefined || pend.next !== num) {
      // Out of order or orphan fragment: the pending message (if any) can no longer
      // be completed correctly, so it is dropped too (never spliced).
      if (pend !== undefined) {
        map.delete(key);
        this.reasonCounts[R_FRAGMENT_MISSING]!++;
      }
      return R_FRAGMENT_OUT_OF_ORDER;
    }
    pend.payload += payload;
    if (num < total) {
      pend.next = num + 1;
      return FRAGMENT_HELD;
    }
    map.delete(key);
    return pend;
  }

  /** Drops incomplete messages older than the timeout at `now`; returns how many. */
  expire(now: number): number {
    this.lastSweep = now;
    let dropped = 0;
    const limit = this.timeout;
    for (const [key, pend] of this.pending) {
      if (now - pend.firstAt > limit) {
        this.pending.delete(key);
        dropped++;
      }
    }
    this.reasonCounts[R_FRAGMENT_MISSING]! += dropped;
    return dropped;
  }
}
