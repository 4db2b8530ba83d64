import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IngestMetrics } from "../../../src/adapters/ingest/metrics.ts";
import { IngestPipeline } from "../../../src/adapters/ingest/pipeline.ts";
import { encodePositionA, toSentences } from "../../../src/domain/ais/encode.ts";
import type { IngestBatch, IngestStation, PositionStore } from "../../../src/interfaces/positions.ts";
import { TestClock } from "../../helpers/service.ts";
import { positionLine, staticLines } from "../../helpers/ingest.ts";

const STATION: IngestStation = { id: 1, accountId: "acc_x", name: "roof", shared: false, secretHash: "00", allowFrom: null };

/** Records batches; can be made slow or failing. */
class FakeStore {
  batches: IngestBatch[] = [];
  delayMs = 0;
  fail = 0;
  async writeBatch(batch: IngestBatch) {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.fail > 0) {
      this.fail--;
      throw new Error("store down");
    }
    this.batches.push(batch);
    return { inserted: batch.positions.length };
  }
  get positions() {
    return this.batches.flatMap((b) => b.positions);
  }
}

function pipeline(store: FakeStore, clock: TestClock, options = {}) {
  return new IngestPipeline(store as unknown as PositionStore, clock, new IngestMetrics(), { flushIntervalMs: 20, ...options });
}

const lines = (n: number, first = 200_000_000) => Array.from({ length: n }, (_, i) => positionLine({ mmsi: first + i, lat: 10, lon: 10 }));

describe("ingest pipeline", () => {
  it("writes in batches of at most batchSize rows, in order, and resolves `stored` after the write", async () => {
    const store = new FakeStore();
    const p = pipeline(store, new TestClock(), { batchSize: 100 });
    const r = p.submit(STATION, lines(1_050), { source: "t", transport: "file" });
    assert.equal(r.positions, 1_050);
    await r.stored;
    assert.equal(store.positions.length, 1_050);
    assert.ok(store.batches.every((b) => b.positions.length <= 100));
    assert.deepEqual(
      store.positions.map((f) => f.mmsi),
      Array.from({ length: 1_050 }, (_, i) => 200_000_000 + i),
    );
    await p.close();
  });

  it("a few lines are written within the flush interval", async () => {
    const store = new FakeStore();
    const p = pipeline(store, new TestClock(), { flushIntervalMs: 30 });
    p.submit(STATION, lines(3), { source: "t", transport: "file" }, { wait: false });
    assert.equal(store.batches.length, 0);
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(store.positions.length, 3);
    await p.close();
  });

  it("positions without a fix, out of range, or stamped far in the future are counted, not queued; the tag-block time is the fix's time", async () => {
    const clock = new TestClock();
    const store = new FakeStore();
    const p = pipeline(store, clock);
    const body = [
      positionLine({ mmsi: 201_000_001, lat: 59, lon: 18 }, clock.t - 3_600_000),
      positionLine({ mmsi: 201_000_002, lat: 59, lon: 18 }),
      toSentences(encodePositionA({ mmsi: 201_000_003, lat: null, lon: null, sog: 0, cog: 0, heading: 0 }))[0]!,
      // 95 degrees north: passed through by the decoder, refused here.
      toSentences(encodePositionA({ mmsi: 201_000_004, lat: 95, lon: 18, sog: 0, cog: 0, heading: 0 }))[0]!,
      positionLine({ mmsi: 201_000_005, lat: 59, lon: 18 }, clock.t + 24 * 3_600_000),
    ];
    const r = p.submit(STATION, body, { source: "t", transport: "file" });
    assert.equal(r.positions, 2);
    assert.equal(r.invalidPositions, 3);
    await r.stored;
    assert.deepEqual(
      store.positions.map((f) => [f.mmsi, f.time]),
      [
        [201_000_001, clock.t - 3_600_000],
        [201_000_002, clock.t],
      ],
    );
    const counters = Object.fromEntries(store.batches.flatMap((b) => b.counters).map((c) => [c.counter, c.delta]));
    assert.equal(counters.positions_invalid, 2);
    assert.equal(counters.positions_future, 1);
    assert.equal(counters.lines, 5);
    await p.close();
  });

  it("keeps one latest fix and one merged identity per vessel and batch", async () => {
    const clock = new TestClock();
    const store = new FakeStore();
    const p = pipeline(store, clock);
    const r = p.submit(
      STATION,
      [
        // A few metres apart (farther would be a jump no ship can sail in a second).
        positionLine({ mmsi: 202_000_001, lat: 1.001, lon: 1.001 }, clock.t - 2_000),
        positionLine({ mmsi: 202_000_001, lat: 1.003, lon: 1.003 }, clock.t),
        positionLine({ mmsi: 202_000_001, lat: 1.002, lon: 1.002 }, clock.t - 1_000),
        ...staticLines({ mmsi: 202_000_001, shipname: "FIRST", destination: "A" }, 1),
        ...staticLines({ mmsi: 202_000_001, shipname: "SECOND", destination: "" }, 2),
      ],
      { source: "t", transport: "file" },
    );
    await r.stored;
    const [b] = store.batches;
    assert.equal(b!.positions.length, 3);
    assert.deepEqual(
      b!.latest.map((f) => f.lat),
      [1.003],
    );
    assert.equal(b!.identities.length, 1);
    assert.equal(b!.identities[0]!.name, "SECOND");
    assert.equal(b!.identities[0]!.destination, null, "an empty destination is broadcast as 'none', not 'unchanged'");
    await p.close();
  });

  it("a failing store keeps the rows and retries; `stored` resolves only once written", async () => {
    const store = new FakeStore();
    store.fail = 2;
    const p = pipeline(store, new TestClock());
    let done = false;
    const r = p.submit(STATION, lines(10), { source: "t", transport: "file" });
    void r.stored.then(() => {
      done = true;
    });
    await new Promise((res) => setTimeout(res, 100));
    assert.equal(done, false);
    await r.stored;
    assert.equal(store.positions.length, 10);
    const counters = store.batches.flatMap((b) => b.counters).filter((c) => c.counter === "lines");
    assert.equal(counters.reduce((s, c) => s + c.delta, 0), 10, "counters of failed writes are not lost either");
    await p.close();
  });

  it("reports overload above maxBuffered and drains", async () => {
    const store = new FakeStore();
    store.delayMs = 50;
    const p = pipeline(store, new TestClock(), { batchSize: 100, maxBuffered: 500 });
    p.submit(STATION, lines(1_000), { source: "t", transport: "udp" }, { wait: false });
    assert.equal(p.overloaded, true);
    await p.whenDrained();
    assert.ok(p.buffered < 250);
    await p.close();
    assert.equal(store.positions.length, 1_000);
  });

  it("a station's fragments from two connections are never glued together", async () => {
    const store = new FakeStore();
    const p = pipeline(store, new TestClock());
    const [a1, a2] = staticLines({ mmsi: 203_000_001, shipname: "AAA" }, 5);
    const [b1, b2] = staticLines({ mmsi: 203_000_002, shipname: "BBB" }, 5);
    p.submit(STATION, [a1!], { source: "conn-1", transport: "tcp" }, { wait: false });
    p.submit(STATION, [b1!], { source: "conn-2", transport: "tcp" }, { wait: false });
    p.submit(STATION, [b2!], { source: "conn-2", transport: "tcp" }, { wait: false });
    await p.submit(STATION, [a2!], { source: "conn-1", transport: "tcp" }).stored;
    const names = store.batches.flatMap((b) => b.identities).map((i) => [i.mmsi, i.name]);
    assert.deepEqual(names.sort(), [
      [203_000_001, "AAA"],
      [203_000_002, "BBB"],
    ]);
    await p.close();
  });
});
