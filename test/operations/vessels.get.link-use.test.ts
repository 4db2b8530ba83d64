/**
 * The IMO<->MMSI link of a ship asked by MMSI is judged for the use the answer is for: the
 * vessel page (`web`) by the sources' web permission, REST by their API permission. The
 * operation once judged the link for `api` whatever the use, so a page showed (or hid) the
 * ship behind an MMSI by the wrong permission.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ANONYMOUS_ENTITLEMENTS } from "../../src/operations/authenticate.ts";
import { execute } from "../../src/operations/execute.ts";
import type { Principal } from "../../src/operations/principal.ts";
import { vesselsGet } from "../../src/operations/vessels.get.ts";
import { ENGINES, startTestService, type TestService } from "../helpers/service.ts";
import { sourcesFile } from "../helpers/sources-file.ts";
import { fix, identity, writeFixes } from "../helpers/vessels.ts";

/** MAERSK ABERDEEN of the bundled EU MRV data; only the test's shared station links it to this MMSI. */
const IMO = 9175793;
const MMSI = 230_999_011;

let visits = 0;
/** A visitor without an account, from an address of its own (the test clock stands still, and calls are limited per address). */
function visitor(): Principal {
  const address = `192.0.2.${++visits}`;
  return { kind: "anonymous", subject: `ip:${address}`, entitlements: ANONYMOUS_ENTITLEMENTS, clientAddress: address };
}

async function byMmsi(t: TestService, use: "api" | "web") {
  const out = await execute(t.service.pipeline, vesselsGet, visitor(), {
    params: { id: `mmsi-${MMSI}` },
    query: {},
    baseUrl: "https://mds.example",
    requestId: `req-${use}`,
    use,
  });
  assert.ok(out.ok, out.ok ? "" : out.error.message);
  return { ...out.top, data: out.data, withheld: out.withheld };
}

for (const engine of ENGINES) {
  // The `station` entry of the sources file caps every station's uses, shared ones included.
  const cases = [
    { name: "stations cleared for the API but not for pages", permissions: { api: true, web: false }, shownFor: "api" as const, hiddenFor: "web" as const },
    { name: "stations cleared for pages but not for the API", permissions: { api: false, web: true }, shownFor: "web" as const, hiddenFor: "api" as const },
  ];
  for (const c of cases) {
    describe(`the MMSI link by the answer's use, ${c.name} (${engine})`, () => {
      let t: TestService;
      let remove: () => void;
      before(async () => {
        const file = sourcesFile({ station: c.permissions });
        remove = file.remove;
        t = await startTestService({ engine, env: { SOURCES_FILE: file.path } });
        const { accountId } = await t.key("pro", "station owner");
        const { station } = await t.service.services.stations.createStation(accountId, "shared mast");
        await t.service.services.stations.updateStation(station.id, { shared: true, redistribution: true, commercial: true });
        await identity(t, { stationId: station.id, mmsi: MMSI, imo: IMO, name: "MAERSK ABERDEEN" });
        await writeFixes(t, [fix(station.id, MMSI, t.clock.now() - 60_000)]);
      });
      after(async () => {
        await t.close();
        remove();
      });

      it(`${c.shownFor}: the ship behind the MMSI, by its IMO`, async () => {
        const body = await byMmsi(t, c.shownFor);
        assert.equal(body.imo, IMO);
        assert.match(body.api, new RegExp(`/api/v1/vessels/${IMO}$`));
        assert.ok((body.data.emissions ?? []).length > 0, "the IMO's EU MRV reports");
      });

      it(`${c.hiddenFor}: the MMSI alone, and the link withheld for that use`, async () => {
        const body = await byMmsi(t, c.hiddenFor);
        assert.equal(body.imo, null);
        assert.match(body.api, new RegExp(`/api/v1/vessels/mmsi-${MMSI}$`));
        assert.match(body.page, new RegExp(`/vessel/mmsi-${MMSI}$`));
        assert.deepEqual(body.data.emissions, []);
        assert.doesNotMatch(JSON.stringify(body), new RegExp(`${IMO}|MAERSK`), "nothing keyed by the IMO");
        const reason = c.hiddenFor === "web" ? "source_not_licensed_for_web" : "source_not_licensed_for_api";
        assert.ok(
          body.withheld.some((w) => w.section === "identity" && w.sources.some((s) => s.startsWith("station:")) && w.reason === reason),
          JSON.stringify(body.withheld),
        );
      });

      if (c.hiddenFor === "web") {
        it("the vessel page by MMSI shows no trace of the IMO", async () => {
          let url = `/vessel/mmsi-${MMSI}`;
          let res = await t.service.app.inject({ method: "GET", url, remoteAddress: `198.51.100.${++visits}` });
          // The address of the MMSI redirects to the page's canonical one, which must not name the IMO either.
          for (let hops = 0; res.statusCode === 301 && hops < 3; hops++) {
            url = String(res.headers.location);
            assert.doesNotMatch(url, new RegExp(`${IMO}|maersk`, "i"));
            res = await t.service.app.inject({ method: "GET", url: new URL(url, "http://localhost").pathname, remoteAddress: `198.51.100.${++visits}` });
          }
          assert.equal(res.statusCode, 200, res.body.slice(0, 500));
          assert.doesNotMatch(res.body, new RegExp(`${IMO}|MAERSK`));
        });
      }
    });
  }
}
