import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decide } from "../../../src/domain/rights/decide.ts";
import { type Source, SourceRegistry } from "../../../src/domain/rights/source.ts";
import { sharedStationSource } from "../../../src/domain/rights/station-source.ts";
import { allowFromMatcher, parseAllowFrom } from "../../../src/domain/stations/allow-from.ts";
import { formatConnectTarget, parseConnectTarget } from "../../../src/domain/stations/connect-target.ts";

const stationEntry = (api: boolean, redistribution: boolean, commercial: boolean): Source => ({
  id: "station",
  name: "stations",
  attribution: "stations",
  license: "per station",
  permissions: { api, redistribution, commercial },
});

/** Station 5 shared by acc_owner granting redistribution only; station 6 shared with everything; 7 private. */
function registry(entry: Source, extra: Source[] = []): SourceRegistry {
  const r = new SourceRegistry([entry, ...extra]);
  const shared = new Map([
    [5, sharedStationSource({ id: 5, accountId: "acc_owner", name: "mast", sourceName: null, redistribution: true, commercial: false })],
    [6, sharedStationSource({ id: 6, accountId: "acc_other", name: "pier", sourceName: "Pier AIS", redistribution: true, commercial: true })],
  ]);
  r.attachStations((id) => shared.get(id));
  return r;
}

describe("shared stations in the rights engine", () => {
  it("a shared station is a source of its own, named by its owner, with the uses granted", () => {
    const r = registry(stationEntry(true, true, true));
    assert.equal(r.get("station:6")!.name, "Pier AIS");
    assert.deepEqual(r.get("station:5")!.permissions, { api: true, web: true, redistribution: true, commercial: false });
    assert.equal(r.get("station:7")!.id, "station", "a private station falls under the file's entry");
    assert.equal(decide(r, ["station:5"], { commercialUse: true, accountId: "acc_someone" }, "api").denials[0]?.why, "no_commercial_use");
    assert.equal(decide(r, ["station:5"], { commercialUse: false, accountId: null }, "redistribution").allowed, true);
  });

  it("the owner's own use is never limited by what they grant others", () => {
    const r = registry(stationEntry(true, true, true));
    assert.equal(decide(r, ["station:5"], { commercialUse: true, accountId: "acc_owner" }, "api").allowed, true);
    assert.equal(decide(r, ["station:5", "station:6"], { commercialUse: true, accountId: "acc_owner" }, "api").allowed, true, "station 6 grants commercial use itself");
  });

  it("the operator's station entry caps every grant, and a file entry for one station wins", () => {
    const capped = registry(stationEntry(true, false, true));
    assert.deepEqual(capped.get("station:6")!.permissions, { api: true, web: true, redistribution: false, commercial: true });
    // The operator's `web: false` keeps shared stations' facts off the pages, whatever the owner granted.
    const offWeb = registry({ ...stationEntry(true, true, true), permissions: { api: true, web: false, redistribution: true, commercial: true } });
    assert.equal(decide(offWeb, ["station:6"], { commercialUse: false, accountId: null }, "web").denials[0]?.why, "no_web_use");
    assert.equal(decide(offWeb, ["station:6"], { commercialUse: false, accountId: null }, "api").allowed, true);
    const denied = registry(stationEntry(false, false, false));
    assert.equal(decide(denied, ["station:6"], { commercialUse: false, accountId: null }, "api").denials[0]?.why, "no_api_use");
    const pinned = registry(stationEntry(true, true, true), [{ ...stationEntry(false, false, false), id: "station:6" }]);
    assert.equal(pinned.get("station:6")!.permissions.api, false);
    const none = new SourceRegistry([]);
    none.attachStations(() => sharedStationSource({ id: 6, accountId: "a", name: "p", sourceName: null, redistribution: true, commercial: true }));
    assert.equal(decide(none, ["station:6"], { commercialUse: false }, "api").denials[0]?.why, "unknown_source", "no station entry in the file: no station data");
  });
});

describe("--allow-from ranges", () => {
  it("canonical ranges; IPv4 senders on dual-stack sockets match; IPv6 ranges", () => {
    assert.deepEqual(parseAllowFrom(" 192.0.2.7 , 10.0.0.0/8,2001:db8::/32,10.0.0.0/8"), ["192.0.2.7/32", "10.0.0.0/8", "2001:db8::/32"]);
    const m = allowFromMatcher(["192.0.2.7/32", "10.0.0.0/8", "2001:db8::/32"]);
    assert.equal(m("192.0.2.7"), true);
    assert.equal(m("::ffff:192.0.2.7"), true);
    assert.equal(m("192.0.2.8"), false);
    assert.equal(m("10.255.1.1"), true);
    assert.equal(m("2001:db8::1"), true);
    assert.equal(m("2001:db9::1"), false);
    assert.equal(m("not an address"), false);
    assert.equal(m(""), false);
  });

  it("refuses what is not a range, host bits set, empty entries and too many ranges", () => {
    for (const bad of ["", "x", "10.0.0.0/33", "10.0.0.1/8", "1.2.3.4,,5.6.7.8", "::1/129", "1.2.3", Array.from({ length: 33 }, (_, i) => `10.0.${i}.0/24`).join(",")]) {
      assert.throws(() => parseAllowFrom(bad), /--allow-from/, bad);
    }
  });
});

describe("--connect targets", () => {
  it("host:port, [v6]:port; anything else refused", () => {
    assert.deepEqual(parseConnectTarget("192.0.2.5:5010"), { host: "192.0.2.5", port: 5010 });
    assert.deepEqual(parseConnectTarget("receiver.local:10110"), { host: "receiver.local", port: 10110 });
    assert.equal(formatConnectTarget(parseConnectTarget("[2001:db8::5]:10110")), "[2001:db8::5]:10110");
    for (const bad of ["", "host", "host:", ":5010", "host:0", "host:65536", "2001:db8::5:10110", "-bad-:1", "a b:1", "host:5010/path"]) {
      assert.throws(() => parseConnectTarget(bad), /--connect/, bad);
    }
  });
});
