/**
 * Signed datagrams a station has already delivered, remembered for as long as their
 * signature time is accepted, so a captured datagram sent again is dropped instead of
 * being decoded and counted once more.
 *
 * Why (time, sequence, MAC prefix) and not only the sequence number: a station may run
 * several senders (each with its own counter) and a sender restarts its counter at 0, so
 * the sequence alone repeats legitimately. The signed time bounds how long an entry is
 * needed (a datagram further than `windowS` from our clock is refused as stale anyway),
 * and the MAC prefix tells two different datagrams with the same time and sequence apart.
 * A replay is a byte-for-byte copy, so it matches all three.
 */
export class ReplayWindow {
  readonly #windowS: number;
  readonly #maxPerStation: number;
  /** station -> signed second -> `seq:macPrefix` seen in that second. */
  readonly #seen = new Map<number, { bySecond: Map<number, Set<string>>; size: number; prunedAt: number }>();

  /**
   * `maxPerStation` bounds memory against a station flooding us with distinct datagrams:
   * beyond it the oldest seconds are forgotten first (a replay of those is then accepted
   * once more, which is the lesser harm than unbounded growth).
   */
  constructor(windowS: number, maxPerStation = 500_000) {
    this.#windowS = windowS;
    this.#maxPerStation = maxPerStation;
  }

  /** Records the datagram; false when it was seen before (a replay). `nowS` is the receiver's clock in seconds. */
  firstSeen(stationId: number, t: number, seq: number, mac: Buffer, nowS: number): boolean {
    let st = this.#seen.get(stationId);
    if (!st) {
      st = { bySecond: new Map(), size: 0, prunedAt: nowS };
      this.#seen.set(stationId, st);
    }
    if (nowS !== st.prunedAt || st.size >= this.#maxPerStation) this.#prune(st, nowS);
    const id = `${seq}:${mac.toString("hex", 0, 8)}`;
    let second = st.bySecond.get(t);
    if (!second) {
      second = new Set();
      st.bySecond.set(t, second);
    }
    if (second.has(id)) return false;
    second.add(id);
    st.size++;
    return true;
  }

  #prune(st: { bySecond: Map<number, Set<string>>; size: number; prunedAt: number }, nowS: number): void {
    st.prunedAt = nowS;
    for (const [t, ids] of st.bySecond) {
      if (t >= nowS - this.#windowS) continue;
      st.bySecond.delete(t);
      st.size -= ids.size;
    }
    if (st.size < this.#maxPerStation) return;
    for (const t of [...st.bySecond.keys()].sort((a, b) => a - b)) {
      if (st.size < this.#maxPerStation) break;
      st.size -= st.bySecond.get(t)!.size;
      st.bySecond.delete(t);
    }
  }
}
