import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENGINES, get } from "../../helpers/service.ts";
import { type IngestTestService, startIngestService, staticLines, stationFor, type TestStation } from "../../helpers/ingest.ts";

const HOUR = 3_600_000;

/** IMO numbers with a valid check digit. */
const IMO_A = 9_074_729;
const IMO_B = 9_176_187;
const IMO_C = 9_247_455;

/**
 * A static report links its ship into the vessel registry as soon as it is stored: no test
 * here runs the registry refresh (which `serve` keeps as a safety net), so without
 * event-driven linking every lookup by IMO below stays 404.
 */
for (const engine of ENGINES) describe(`links at once (${engine}): a static report with an IMO makes the vessel answer by IMO`, () => {
  let t: IngestTestService;
  let st: TestStation;
  before(async () => {
    t = await startIngestService(engine);
    st = await stationFor(t);
  });
  after(() => t.close());

  const send = async (lines: string[]) => {
    const r = await t.service.app.inject({ method: "POST", url: "/ingest/nmea", headers: { "content-type": "text/plain", authorization: `Bearer ${st.secret}` }, payload: lines.join("\r\n") });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().statics, 1);
  };

  /** Asks for the vessel until it answers 200 or one second has passed; the last answer and the time it took. */
  const askWithinOneSecond = async (id: string) => {
    const started = Date.now();
    for (;;) {
      const r = await get(t, `/api/v1/vessels/${id}`, st.key);
      if (r.status === 200 || Date.now() - started > 1_000) return { ...r, ms: Date.now() - started };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("GET /api/v1/vessels/{imo} answers 200 within one second of the type 5 being accepted", async () => {
    assert.equal((await get(t, `/api/v1/vessels/${IMO_A}`, st.key)).status, 404, "not known before the report");
    await send(staticLines({ mmsi: 257_000_001, imo: IMO_A, shipname: "ALPHA", callsign: "LAAA" }));
    const r = await askWithinOneSecond(String(IMO_A));
    assert.equal(r.status, 200, `after ${r.ms} ms: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.imo, IMO_A);
    assert.equal(r.body.mmsi, 257_000_001);
    assert.equal(r.body.name, "ALPHA");
  });

  it("an MMSI that changes IMO links the new ship apart: the two ships are never merged", async () => {
    await send(staticLines({ mmsi: 257_000_002, imo: IMO_C, shipname: "CHARLIE" }));
    assert.equal((await askWithinOneSecond(String(IMO_C))).status, 200);
    // An hour later the same MMSI broadcasts another IMO and name: the MMSI passed to another ship.
    t.clock.t += HOUR;
    await send(staticLines({ mmsi: 257_000_002, imo: IMO_B, shipname: "BRAVO" }, 2));
    const b = await askWithinOneSecond(String(IMO_B));
    assert.equal(b.status, 200, JSON.stringify(b.body));
    const c = await get(t, `/api/v1/vessels/${IMO_C}`, st.key);
    assert.equal(c.status, 200);
    // Each ship keeps its own name; neither shows the other's.
    assert.equal(b.body.name, "BRAVO");
    assert.equal(c.body.name, "CHARLIE");
    const namesOf = (body: Record<string, any>) => [body.data.identity?.name, ...body.data.otherNames.map((n: { name: string }) => n.name)];
    assert.ok(!namesOf(b.body).includes("CHARLIE"), JSON.stringify(namesOf(b.body)));
    assert.ok(!namesOf(c.body).includes("BRAVO"), JSON.stringify(namesOf(c.body)));
    // Two rows in the registry, and the MMSI now names the newer ship.
    const rows = await t.service.store.db.selectFrom("vessels").select(["id", "imo"]).where("imo", "in", [IMO_C, IMO_B]).execute();
    assert.equal(new Set(rows.map((r) => r.id)).size, 2);
    const byMmsi = await get(t, "/api/v1/vessels/mmsi-257000002", st.key);
    assert.equal(byMmsi.status, 200);
    assert.equal(byMmsi.body.imo, IMO_B);
  });

  it("a static report with an invalid IMO check digit links the ship by MMSI only, never under that IMO", async () => {
    await send(staticLines({ mmsi: 257_000_003, imo: 9_074_728, shipname: "DELTA" }));
    const byMmsi = await askWithinOneSecond("mmsi-257000003");
    assert.equal(byMmsi.status, 200);
    assert.equal(byMmsi.body.imo, null);
    const linked = await t.service.store.db.selectFrom("vessels").select("id").where("imo", "=", 9_074_728).execute();
    assert.equal(linked.length, 0);
  });
});
