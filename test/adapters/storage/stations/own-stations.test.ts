import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OWN_STATIONS_TTL_MS, OwnStations } from "../../../../src/adapters/storage/stations/own-stations.ts";
import { TestClock } from "../../../helpers/service.ts";

/** A table of stations per account, counting how often it is read. */
function table() {
  const rows = new Map<string, number[]>();
  let reads = 0;
  return {
    rows,
    get reads() {
      return reads;
    },
    load: async (accountId: string) => {
      reads++;
      return [...(rows.get(accountId) ?? [])];
    },
  };
}

describe("an account's own stations, cached", () => {
  it("is read once per lifetime, however many calls ask, and again once it has passed", async () => {
    const clock = new TestClock();
    const t = table();
    t.rows.set("acc_a", [1, 2]);
    const own = new OwnStations(t.load, clock);
    const answers = await Promise.all(Array.from({ length: 20 }, () => own.ids("acc_a")));
    assert.ok(answers.every((ids) => ids.join() === "1,2"));
    assert.equal(t.reads, 1, "concurrent callers share one read");
    t.rows.set("acc_a", [1, 2, 3]);
    clock.t += OWN_STATIONS_TTL_MS - 1;
    assert.deepEqual(await own.ids("acc_a"), [1, 2], "a station made elsewhere shows once the lifetime passes");
    clock.t += 1;
    assert.deepEqual(await own.ids("acc_a"), [1, 2, 3]);
    assert.equal(t.reads, 2);
  });

  it("shows a station made in this process at once, even one made while a read was under way", async () => {
    const clock = new TestClock();
    const rows = [5];
    let gate: () => void = () => {};
    let held = false;
    const own = new OwnStations(async () => {
      const snapshot = [...rows];
      if (held) await new Promise<void>((resolve) => (gate = resolve));
      return snapshot;
    }, clock);
    assert.deepEqual(await own.ids("acc_b"), [5]);
    rows.push(6);
    own.added("acc_b");
    assert.deepEqual(await own.ids("acc_b"), [5, 6], "made here: shown at the next call");
    // A read that took its snapshot before the next station was made, and ends after.
    clock.t += OWN_STATIONS_TTL_MS;
    held = true;
    const inFlight = own.ids("acc_b");
    rows.push(7);
    own.added("acc_b");
    held = false;
    assert.deepEqual(await own.ids("acc_b"), [5, 6, 7]);
    gate();
    assert.deepEqual(await inFlight, [5, 6]);
    assert.deepEqual(await own.ids("acc_b"), [5, 6, 7], "the older read is not kept");
  });

  it("keeps each account's list apart", async () => {
    const t = table();
    t.rows.set("acc_c", [7]);
    const own = new OwnStations(t.load, new TestClock());
    assert.deepEqual(await own.ids("acc_c"), [7]);
    assert.deepEqual(await own.ids("acc_d"), []);
  });
});
