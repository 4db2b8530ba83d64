/**
 * Every reader fed garbage: another dataset's file, an empty file, and its own file
 * cut off mid-row as an interrupted download leaves it. Each must fail with an error
 * naming the file, never return fewer rows, and an import must leave the store as it was.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseChokepoints } from "../../../src/adapters/importers/chokepoints.ts";
import { importDataset } from "../../../src/adapters/importers/datasets.ts";
import { parseEmissions } from "../../../src/adapters/importers/emissions.ts";
import { BUNDLED_FLAG_FILES, parseFlags } from "../../../src/adapters/importers/flags.ts";
import { parseMaradFleet } from "../../../src/adapters/importers/marad-fleet.ts";
import { BUNDLED_PORT_FILES } from "../../../src/adapters/importers/ports/bundled-ports.ts";
import { parsePorts } from "../../../src/adapters/importers/ports/parse-ports.ts";
import { readSource } from "../../../src/adapters/importers/read-source.ts";
import { parseWrecks } from "../../../src/adapters/importers/wrecks.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const bundled = async (file: string): Promise<Buffer> => readSource(join(DATASETS, file));

/** The file cut a few bytes into a row near its middle, as an interrupted download leaves it. */
function truncated(bytes: Buffer): Buffer {
  const rowStart = bytes.indexOf(0x0a, Math.floor(bytes.length / 2)) + 1;
  return bytes.subarray(0, rowStart + 3);
}

const [iso3166, ituMids, midToIso, focEvents] = await Promise.all(
  [BUNDLED_FLAG_FILES.iso3166, BUNDLED_FLAG_FILES.ituMids, BUNDLED_FLAG_FILES.midToIso, BUNDLED_FLAG_FILES.focEvents].map(bundled),
);
const flags = { iso3166: iso3166!, ituMids: ituMids!, midToIso: midToIso!, focEvents: focEvents! };
const unlocode2018 = await bundled(BUNDLED_PORT_FILES.unlocode2018);
const chokepoints = await bundled("chokepoints/portwatch_chokepoints_database.csv");

type Reader = { name: string; label: RegExp; own: Buffer; read: (bytes: Buffer) => unknown };

const readers: Reader[] = [
  { name: "chokepoints", label: /^IMF PortWatch chokepoints CSV: /, own: chokepoints, read: parseChokepoints },
  { name: "wrecks", label: /^NOAA AWOIS wrecks CSV: /, own: await bundled("wrecks/noaa_awois_wrecks.csv.gz"), read: parseWrecks },
  { name: "MARAD fleet", label: /^MARAD US-flag fleet CSV: /, own: await bundled("vessels/marad_us_flag_fleet_2023-04-10.csv"), read: parseMaradFleet },
  { name: "EU MRV emissions", label: /^EU MRV emissions CSV: /, own: await bundled("emissions/eu_mrv_2018-2022_key_columns.csv.gz"), read: parseEmissions },
  { name: "UN/LOCODE 2018-1", label: /^UN\/LOCODE 2018-1 code list: /, own: unlocode2018, read: (b) => parsePorts({ unlocode2018: b }) },
  {
    name: "UN/LOCODE 2024",
    label: /^UN\/LOCODE 2024 \(geoapify export\): /,
    own: await bundled(BUNDLED_PORT_FILES.unlocode2024),
    read: (b) => parsePorts({ unlocode2018, unlocode2024: b }),
  },
  { name: "World Port Index", label: /^World Port Index \(Pub 150\): /, own: await bundled(BUNDLED_PORT_FILES.wpi), read: (b) => parsePorts({ unlocode2018, wpi: b }) },
  {
    name: "UN/LOCODE subdivisions",
    label: /^UN\/LOCODE subdivision codes: /,
    own: await bundled(BUNDLED_PORT_FILES.subdivisions),
    read: (b) => parsePorts({ unlocode2018, subdivisions: b }),
  },
  { name: "ISO 3166", label: /^ISO 3166 country codes: /, own: iso3166!, read: (b) => parseFlags({ ...flags, iso3166: b }) },
  { name: "ITU MID table", label: /^ITU MID table: /, own: ituMids!, read: (b) => parseFlags({ ...flags, ituMids: b }) },
  { name: "MID to ISO mapping", label: /^MID to ISO 3166 mapping: /, own: midToIso!, read: (b) => parseFlags({ ...flags, midToIso: b }) },
  { name: "ITF events", label: /^ITF flag-of-convenience events: /, own: focEvents!, read: (b) => parseFlags({ ...flags, focEvents: b }) },
];

for (const reader of readers) {
  describe(`${reader.name} reader refuses garbage with an error naming the file`, () => {
    test("an empty file", () => {
      assert.throws(() => reader.read(Buffer.alloc(0)), (err: Error) => reader.label.test(err.message) && /the file is empty/.test(err.message));
    });

    test("another dataset's file", () => {
      // The chokepoints file is the wrong file for every reader but its own; the ITU table is the wrong one for that.
      const wrong = reader.name === "chokepoints" ? ituMids! : chokepoints;
      assert.throws(() => reader.read(wrong), (err: Error) => reader.label.test(err.message) && /missing column/.test(err.message));
    });

    test("its own file cut off mid-row", () => {
      assert.throws(() => reader.read(truncated(reader.own)), (err: Error) => reader.label.test(err.message) && /malformed CSV|truncated/.test(err.message));
    });
  });
}

describe("a failed import changes nothing", () => {
  let t: TestService;
  let dir: string;
  before(async () => {
    t = await startTestService();
    dir = mkdtempSync(join(tmpdir(), "mds-garbage-"));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a truncated UN/LOCODE file leaves the ports and the dataset log as they were", async () => {
    const { ports } = t.service.services;
    const before = { count: await ports.count(), rotterdam: await ports.get("NLRTM"), log: await t.service.datasets.get("ports") };
    assert.ok(before.count > 18_000 && before.rotterdam !== null, "the bundled ports are there to lose");
    const file = join(dir, "unlocode-2018-1-truncated.csv");
    writeFileSync(file, truncated(unlocode2018));
    await assert.rejects(importDataset(t.service, "ports", file, { progress: false }), /UN\/LOCODE 2018-1 code list: .*truncated/);
    assert.equal(await ports.count(), before.count);
    assert.deepEqual(await ports.get("NLRTM"), before.rotterdam);
    assert.deepEqual(await t.service.datasets.get("ports"), before.log);
  });

  test("a wrong file given for the MARAD fleet leaves the dataset log as it was", async () => {
    const before = await t.service.datasets.get("marad");
    const file = join(dir, "not-marad.csv");
    writeFileSync(file, chokepoints);
    await assert.rejects(importDataset(t.service, "marad", file, { progress: false }), /MARAD US-flag fleet CSV: unexpected header/);
    assert.deepEqual(await t.service.datasets.get("marad"), before);
  });
});
