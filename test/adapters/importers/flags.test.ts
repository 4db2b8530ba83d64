import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  BUNDLED_FLAG_FILES,
  FLAG_OF_CONVENIENCE_NOTE,
  type FlagRecord,
  type FlagsInput,
  loadBundledFlags,
  parseFlags,
} from "../../../src/adapters/importers/flags.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const flags = await loadBundledFlags(DATASETS);
const byIso2 = new Map(flags.map((f) => [f.iso2, f]));

function flag(iso2: string): FlagRecord {
  const f = byIso2.get(iso2);
  assert.ok(f, `${iso2} is in the bundled flags`);
  return f;
}

const bundled: FlagsInput = {
  iso3166: await readFile(DATASETS + BUNDLED_FLAG_FILES.iso3166),
  ituMids: await readFile(DATASETS + BUNDLED_FLAG_FILES.ituMids),
  midToIso: await readFile(DATASETS + BUNDLED_FLAG_FILES.midToIso),
  focEvents: await readFile(DATASETS + BUNDLED_FLAG_FILES.focEvents),
};

describe("flags: bundled ISO 3166 + ITU MIDs + ITF list", () => {
  test("one record per ISO 3166-1 alpha-2 code", () => {
    assert.equal(flags.length, 249);
    assert.equal(byIso2.size, 249);
    for (const f of flags) {
      assert.match(f.iso2, /^[A-Z]{2}$/);
      assert.match(f.iso3, /^[A-Z]{3}$/);
      assert.match(f.numeric, /^\d{3}$/);
      assert.ok(f.name && f.officialName && f.commonName, f.iso2);
    }
  });

  test("NL: MIDs 244, 245, 246, names and region", () => {
    const nl = flag("NL");
    assert.deepEqual(nl.mids, [244, 245, 246]);
    assert.deepEqual(nl.midAllocatedTo, ["Netherlands (Kingdom of the)"]);
    assert.equal(nl.iso3, "NLD");
    assert.equal(nl.numeric, "528");
    assert.equal(nl.name, "Netherlands");
    assert.equal(nl.officialName, "Kingdom of the Netherlands");
    assert.equal(nl.region, "Europe");
    assert.equal(nl.subRegion, "Western Europe");
    assert.equal(nl.independent, true);
    assert.equal(nl.flagOfConvenience.listed, false);
  });

  test("every ITU MID lands on a country; each MID of one administration on one code", () => {
    const all = flags.flatMap((f) => f.mids);
    assert.equal(all.length, 294, "the ITU table's 294 rows");
    const distinct = new Set(all);
    assert.equal(distinct.size, 292);
    for (const mid of distinct) assert.ok(mid >= 201 && mid <= 775, String(mid));
  });

  test("subdivision MIDs map to their country and keep the subdivision", () => {
    const pt = flag("PT");
    assert.deepEqual(pt.mids, [204, 255, 263]);
    const azores = pt.midAllocations.find((a) => a.mid === 204);
    assert.deepEqual(azores, {
      mid: 204,
      allocatedTo: "Portugal - Azores",
      subdivision: "PT-20",
      subdivisionName: "Azores",
      basis: "mapping",
    });
    assert.ok(flag("US").mids.includes(303), "Alaska");
    assert.ok(flag("GB").mids.includes(608), "Ascension Island");
    assert.deepEqual(flag("FR").mids, [226, 227, 228, 501, 607, 618, 635]);
    assert.deepEqual(flag("TF").mids, []);
  });

  test("territories with their own ISO code get their own MIDs", () => {
    assert.deepEqual(flag("FO").mids, [231]);
    assert.deepEqual(flag("GL").mids, [331]);
    assert.deepEqual(flag("HK").mids, [477]);
    assert.deepEqual(flag("TW").mids, [416]);
  });

  test("MID 306 is shared by Curaçao, Sint Maarten and the Caribbean Netherlands (ITU), not only CW (mapping)", () => {
    for (const iso2 of ["CW", "SX", "BQ"]) assert.deepEqual(flag(iso2).mids, [306], iso2);
    assert.equal(flag("SX").midAllocations[0]?.basis, "itu-name");
    assert.equal(flag("CW").midAllocations[0]?.basis, "mapping");
  });

  test("ITU-only MIDs 334, 471, 550 are resolved by name; mapping-only 335 is left out", () => {
    assert.deepEqual(flag("HN").mids, [334]);
    assert.deepEqual(flag("AE").mids, [470, 471]);
    assert.deepEqual(flag("TL").mids, [550]);
    assert.equal(
      flags.some((f) => f.mids.includes(335)),
      false,
    );
  });

  test("PA is listed as a flag of convenience, with the source of the listing", () => {
    const foc = flag("PA").flagOfConvenience;
    assert.equal(foc.listed, true);
    assert.deepEqual(foc.registers, ["Panama"]);
    assert.equal(foc.events[0]?.event, "listed");
    assert.equal(foc.events[0]?.date, "2013-01-30");
    assert.match(foc.events[0]?.sourceUrl ?? "", /^https:\/\//);
    assert.match(foc.note, /NOT authoritative/);
  });

  test("every record says the list is a reconstruction, listed or not", () => {
    for (const f of flags) assert.equal(f.flagOfConvenience.note, FLAG_OF_CONVENIENCE_NOTE);
  });

  test("later additions and removals are replayed", () => {
    assert.equal(flag("CM").flagOfConvenience.listed, true, "added 2021");
    assert.equal(flag("NU").flagOfConvenience.listed, true, "added, undated");
    const tonga = flag("TO").flagOfConvenience;
    assert.equal(tonga.listed, false, "listed 2013, removed later");
    assert.deepEqual(
      tonga.events.map((e) => e.event),
      ["listed", "removed"],
    );
  });

  test("second registers are listed as registers, not as the whole flag", () => {
    const de = flag("DE").flagOfConvenience;
    assert.equal(de.listed, false);
    assert.deepEqual(de.registers, ["German International Ship Register (GIS)"]);
    assert.equal(flag("FR").flagOfConvenience.listed, false);
    assert.equal(flag("TZ").flagOfConvenience.listed, false);
    assert.equal(flag("BM").flagOfConvenience.listed, true, '"Bermuda (UK)" is the Bermudan flag');
  });
});

describe("parseFlags refuses garbage loudly", () => {
  const cases: Array<[string, Partial<FlagsInput>, RegExp]> = [
    ["random ISO bytes", { iso3166: randomBytes(4096) }, /ISO 3166 country codes: /],
    ["empty ITU table", { ituMids: Buffer.alloc(0) }, /ITU MID table: the file is empty/],
    ["wrong CSV as the mapping", { midToIso: Buffer.from("MID,Allocated_to\n244,Netherlands\n") }, /mapping: unexpected header, missing column/],
    ["ITU table without MIDs", { ituMids: Buffer.from("MID,Allocated_to\nabc,Nowhere\n") }, /no MID rows/],
    ["truncated ISO table", { iso3166: bundled.iso3166.subarray(0, 2000) }, /ISO 3166 country codes/],
    ["unknown ITF event", { focEvents: Buffer.from("registry,iso3166_alpha2,event,event_date,source_url,note\nX,PA,maybe,,,\n") }, /unknown event/],
    ["unresolvable ITU name", { ituMids: Buffer.from("MID,Allocated_to\n799,Atlantis (Kingdom of)\n") }, /no ISO 3166 country found for 799/],
    ["gzip bytes", { iso3166: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]) }, /gzip/],
  ];
  for (const [name, override, error] of cases) {
    test(name, () => {
      assert.throws(() => parseFlags({ ...bundled, ...override }), error);
    });
  }

  test("without the ITF file every flag is unlisted but still carries the note", () => {
    const out = parseFlags({ ...bundled, focEvents: undefined });
    assert.equal(out.filter((f) => f.flagOfConvenience.listed).length, 0);
    assert.equal(out.find((f) => f.iso2 === "NL")?.flagOfConvenience.note, FLAG_OF_CONVENIENCE_NOTE);
  });
});
