import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { loadBundledPorts } from "../../../src/adapters/importers/ports/bundled-ports.ts";
import { functionNamesOf } from "../../../src/adapters/importers/ports/function-classifier.ts";
import { parsePorts } from "../../../src/adapters/importers/ports/parse-ports.ts";
import type { PortRecord } from "../../../src/adapters/importers/ports/port-record.ts";
import { parseUnlocodeCoordinates } from "../../../src/adapters/importers/ports/unlocode-coordinates.ts";

const DATASETS = fileURLToPath(new URL("../../../datasets/", import.meta.url));
const ports = await loadBundledPorts(DATASETS);
const byCode = new Map(ports.map((p) => [p.unlocode, p]));

function port(code: string): PortRecord {
  const p = byCode.get(code);
  assert.ok(p, `${code} is in the bundled ports`);
  return p;
}

describe("ports: bundled UN/LOCODE 2018-1 + 2024 + WPI", () => {
  test("well over 18,000 ports, one per UN/LOCODE, all with the port function", () => {
    assert.ok(ports.length > 18_000, `${ports.length} rows`);
    assert.equal(byCode.size, ports.length, "codes are unique");
    for (const p of ports) {
      assert.match(p.unlocode, /^[A-Z]{2}[A-Z2-9]{3}$/);
      assert.equal(p.unlocode, p.country + p.location);
      assert.match(p.functions, /^1[0-9A-Z-]{7}$/, p.unlocode);
      assert.ok(p.functionNames.includes("port"), p.unlocode);
    }
    const sorted = ports.map((p) => p.unlocode);
    assert.deepEqual(sorted, [...sorted].sort());
  });

  test("both editions contribute; 2024 rows carry no UNECE change date", () => {
    const e2024 = ports.filter((p) => p.edition === "2024");
    assert.ok(e2024.length > 400 && e2024.length < 1_000, `${e2024.length} codes from 2024`);
    assert.ok(e2024.every((p) => p.changed === null && p.in2024 === "port"));
    assert.ok(ports.filter((p) => p.edition === "2018-1").length > 18_000);
  });

  test("coordinates are consistent with their source and in range", () => {
    const counts = new Map<string, number>();
    for (const p of ports) {
      counts.set(String(p.coordSource), (counts.get(String(p.coordSource)) ?? 0) + 1);
      if (p.coordSource === null) {
        assert.equal(p.lat, null);
        assert.equal(p.lon, null);
        continue;
      }
      assert.ok(p.lat !== null && Math.abs(p.lat) <= 90, p.unlocode);
      assert.ok(p.lon !== null && Math.abs(p.lon) <= 180, p.unlocode);
      assert.equal(p.coordEdition !== null, p.coordSource === "unlocode", p.unlocode);
    }
    assert.ok((counts.get("unlocode") ?? 0) > 12_000);
    assert.ok((counts.get("wpi") ?? 0) > 1_000);
    assert.ok((counts.get("geoapify") ?? 0) > 1_000, "geocoded coordinates are kept, labelled");
  });

  test("no broken names reach the records", () => {
    for (const p of ports) {
      for (const n of [p.name, p.nameAscii, ...p.alternateNames]) {
        assert.doesNotMatch(n, /[?\uFFFD]/, `${p.unlocode} ${n}`);
      }
    }
  });

  test("NLRTM Rotterdam: UNECE coordinates, WPI harbour facts", () => {
    const p = port("NLRTM");
    assert.equal(p.name, "Rotterdam");
    assert.equal(p.edition, "2018-1");
    assert.equal(p.coordSource, "unlocode");
    assert.equal(p.lat, 51.916667);
    assert.equal(p.lon, 4.5);
    assert.equal(p.subdivisionName, "Zuid-Holland");
    assert.deepEqual(p.functionNames, ["port", "rail terminal", "road terminal", "airport", "postal exchange office"]);
    assert.equal(p.in2024, "port");
    assert.ok(p.wpi);
    assert.equal(p.wpi.number, 31140);
    assert.equal(p.wpi.harborSize, "Large");
    assert.equal(p.wpi.channelDepthM, 11);
    assert.equal(p.wpi.maxVesselLengthM, null, "NGA's 0.0 means not given");
  });

  test("AEAJM Ajman: no UNECE coordinates in either edition, so the WPI position", () => {
    const p = port("AEAJM");
    assert.equal(p.coordSource, "wpi");
    assert.equal(p.coordEdition, null);
    assert.equal(p.lat, p.wpi?.lat);
    assert.equal(p.lon, p.wpi?.lon);
    assert.equal(p.wpi?.name, "Ajman");
  });

  test("AEHSN Hassyan: a code new in 2024", () => {
    assert.equal(byCode.has("AEHSN"), true);
    const p = port("AEHSN");
    assert.equal(p.edition, "2024");
    assert.equal(p.name, "Hassyan");
    assert.equal(p.coordSource, "unlocode");
    assert.equal(p.coordEdition, "2024");
    assert.equal(p.status, "AA");
  });

  test("2024 rows with lost diacritics: named from 2018-1 when possible, else without accents", () => {
    const macae = port("BRMEA"); // not a port in 2018-1, a port in 2024
    assert.equal(macae.edition, "2024");
    assert.equal(macae.name, "Macaé");
    assert.equal(macae.nameAscii, "Macae");
    assert.match(macae.notes.join(), /2018-1 edition/);
    const timbues = port("ARTIM"); // new code, 2024 name "Timb\uFFFDes"
    assert.equal(timbues.name, "Timbues");
    assert.match(timbues.notes.join(), /lost/);
  });

  test("damaged 2024 rows are never used", () => {
    // JPAGE's shifted row puts the subdivision "11" in the function column: it must not become a port.
    assert.equal(byCode.has("JPAGE"), false);
    // MYBKI is a 2018-1 port whose only 2024 row is shifted: the geocoded position of that row is not used.
    const p = port("MYBKI");
    assert.equal(p.in2024, "damaged");
    assert.equal(p.coordSource, "wpi");
  });

  test("a 2024 code reused for another place does not overwrite the 2018-1 port", () => {
    const p = port("BRPCE"); // Pecém (2018-1) -> Paulicéia (2024), 2,400 km apart
    assert.equal(p.name, "Pecém Pt/São Gonçalo do Amarante");
    assert.equal(p.in2024, "different-location");
    assert.equal(p.coordEdition, "2018-1");
    assert.equal(p.lat, -3.533333);
    assert.equal(p.lon, -38.866667);
    assert.match(p.notes.join(), /marked for deletion/);
  });

  test("the 2024 edition corrects 2018-1 coordinates (JPTTK had 139°34'W)", () => {
    const p = port("JPTTK");
    assert.equal(p.coordEdition, "2024");
    assert.equal(p.lon, 139.566667);
    assert.match(p.notes.join(), /13934W/);
  });

  test("rejected 2018-1 coordinates are noted, not used", () => {
    const p = port("AUMON"); // "1265S 12405E": 65 minutes
    assert.match(p.notes.join(), /"1265S 12405E" rejected/);
    assert.equal(p.coordEdition, "2024");
  });

  test("duplicated codes: one record, the other names kept", () => {
    const p = port("AXMHQ");
    assert.equal(p.name, "Maarianhamina (Mariehamn)");
    assert.deepEqual(p.alternateNames, ["Mariehamn (Maarianhamina)"]);
  });

  test("WPI ports sharing a code: the one named like the port wins", () => {
    const p = port("MXPMS"); // WPI has Puerto Morelos and Puerto Morro Redondo under MX PMS
    assert.equal(p.wpi?.name, "Puerto Morelos");
    assert.equal(p.wpi?.otherNumbers.length, 1);
  });
});

describe("UN/LOCODE coordinates", () => {
  test("degrees and whole minutes, south and west negative", () => {
    assert.deepEqual(parseUnlocodeCoordinates("5155N 00430E"), { lat: 51.916667, lon: 4.5 });
    assert.deepEqual(parseUnlocodeCoordinates("3352S 15112E"), { lat: -33.866667, lon: 151.2 });
    assert.deepEqual(parseUnlocodeCoordinates("4043N 07400W"), { lat: 40.716667, lon: -74 });
    assert.deepEqual(parseUnlocodeCoordinates(" 2233S 04312W "), { lat: -22.55, lon: -43.2 });
    assert.deepEqual(parseUnlocodeCoordinates("9000N 18000W"), { lat: 90, lon: -180 });
  });

  test("zero stays positive zero", () => {
    const c = parseUnlocodeCoordinates("0000S 00000W");
    assert.ok(c);
    assert.ok(Object.is(c.lat, 0) && Object.is(c.lon, 0));
  });

  test("malformed or out-of-range strings give null", () => {
    for (const bad of [
      "4427N 064250W",
      "43120N 08006W",
      "2444N 05045",
      "3360S 06843W", // 60 minutes
      "4676N 14454E", // decimal degrees in disguise
      "9001N 00000E",
      "0000N 18001E",
      "1234X 01234E",
      "5155n 00430e",
      "51.9N 4.5E",
      "",
      "   ",
      null,
      undefined,
    ]) {
      assert.equal(parseUnlocodeCoordinates(bad), null, String(bad));
    }
  });
});

const HEADER_2018 = "Change,Country,Location,Name,NameWoDiacritics,Subdivision,Function,Status,Date,IATA,Coordinates,Remarks";
const HEADER_2024 =
  "unlocode,country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,coord_source,coordinates_unece_reconstructed,quality_flag";

function csv(...lines: string[]): Buffer {
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
}

const SMALL_2018 = csv(
  HEADER_2018,
  ",XA,,.TESTLAND,,,,,,,,",
  ",XA,AAA,Åport,Aport,,1-3-----,AI,0601,,1030S 02015W,",
  "X,XA,BBB,Bport old,Bport old,,1-------,XX,0601,,,",
  ",XA,BBB,Bport,Bport,,1-------,RL,0101,,,",
  ",XA,CCC,Cville,Cville,,--3-----,RL,0601,,,",
  ',XA,DDD,"Dport, North",Dport North,,1-------,RL,0601,,9900N 00000E,',
);

describe("parsePorts on small inputs", () => {
  test("ports only, duplicates resolved, coordinates parsed or rejected", () => {
    const out = parsePorts({ unlocode2018: SMALL_2018 });
    assert.deepEqual(
      out.map((p) => p.unlocode),
      ["XAAAA", "XABBB", "XADDD"],
    );
    const [a, b, d] = out as [PortRecord, PortRecord, PortRecord];
    assert.deepEqual([a.lat, a.lon, a.coordSource, a.in2024], [-10.5, -20.25, "unlocode", null]);
    assert.equal(b.name, "Bport", "the row not marked for deletion wins");
    assert.deepEqual(b.alternateNames, ["Bport old"]);
    assert.equal(d.name, "Dport, North");
    assert.equal(d.coordSource, null);
    assert.match(d.notes.join(), /rejected/);
  });

  test("2024: new ok codes added, damaged rows dropped, lost names repaired", () => {
    const y2024 = csv(
      HEADER_2024,
      "XAAAA,XA,AAA,Åport,Aport,,AI,1-3-----,,-10.5,-20.25,unece,1030S 02015W,ok",
      "XAEEE,XA,EEE,Eport,Eport,,RL,1-------,,1.5,2.5,unece,0130N 00230E,ok",
      'XAFFF,XA,FFF,"""Fport"," North""","""Fport"," North""",,RL,1-------,,3,4,geoapify_geocoded,,shifted_columns',
      "XAGGG,XA,GGG,G\uFFFDport,Goport,,RL,1-------,,,,,,name_diacritics_lost",
      "XACCC,XA,CCC,C?ville,Cville,,RL,1-3-----,,5,6,geoapify_geocoded,,ok",
      "XAHHH,XA,HHH,Hport,Hport,,RL,1-------,,5,6,geoapify_geocoded,,shifted_columns|name_diacritics_lost",
    );
    const out = parsePorts({ unlocode2018: SMALL_2018, unlocode2024: y2024 });
    const got = new Map(out.map((p) => [p.unlocode, p]));
    assert.deepEqual([...got.keys()], ["XAAAA", "XABBB", "XACCC", "XADDD", "XAEEE", "XAGGG"]);
    assert.equal(got.get("XAAAA")?.in2024, "port");
    assert.equal(got.get("XABBB")?.in2024, "absent");
    assert.equal(got.get("XAEEE")?.edition, "2024");
    assert.deepEqual([got.get("XAEEE")?.lat, got.get("XAEEE")?.lon], [1.5, 2.5]);
    assert.equal(got.get("XAGGG")?.name, "Goport");
    const c = got.get("XACCC");
    assert.equal(c?.name, "Cville", "name from the 2018-1 row of the same code");
    assert.equal(c?.coordSource, "geoapify");
  });

  test("WPI: code written with a space, 0.0 read as not given, coordinates as fallback", () => {
    const wpi = csv(
      "\uFEFFWorld Port Index Number,Main Port Name,Alternate Port Name,UN/LOCODE,Harbor Size,Maximum Vessel Length (m),Channel Depth (m),Facilities - Container,Latitude,Longitude",
      "123.0,Bport Harbour, ,XA BBB,Small,0.0,12.5,Yes,-1.25,2.5",
      "124.0,Nowhere, , ,Small,0.0,0.0,No,0,0",
    );
    const out = parsePorts({ unlocode2018: SMALL_2018, wpi });
    const b = out.find((p) => p.unlocode === "XABBB");
    assert.ok(b?.wpi);
    assert.equal(b.wpi.number, 123);
    assert.equal(b.wpi.alternateName, null);
    assert.equal(b.wpi.maxVesselLengthM, null);
    assert.equal(b.wpi.channelDepthM, 12.5);
    assert.deepEqual(b.wpi.facilities, ["container"]);
    assert.deepEqual([b.lat, b.lon, b.coordSource], [-1.25, 2.5, "wpi"]);
  });

  test("UNECE's headerless Latin-1 layout is read too", () => {
    const latin1 = Buffer.from(",XA,AAA,Åport,Aport,,1-3-----,AI,0601,,1030S 02015W,\r\n", "latin1");
    const out = parsePorts({ unlocode2018: latin1 });
    assert.equal(out.length, 1);
    assert.equal(out[0]?.name, "Åport");
  });

  test("function classifier names", () => {
    assert.deepEqual(functionNamesOf("1-3-----"), ["port", "road terminal"]);
    assert.deepEqual(functionNamesOf("1------B"), ["port", "border crossing"]);
    assert.deepEqual(functionNamesOf("--------"), []);
  });
});

describe("parsePorts refuses garbage loudly", () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ["random bytes", randomBytes(4096), /UN\/LOCODE 2018-1 code list: /],
    ["empty file", Buffer.alloc(0), /empty/],
    ["blank lines only", Buffer.from("\r\n\r\n  \n"), /empty/],
    ["gzip bytes", gzipSync(SMALL_2018), /gzip/],
    ["another CSV", csv("mid,iso3166_alpha2", "244,NL"), /missing column\(s\) Change, Country, Location/],
    ["bad quoting", Buffer.from(`${HEADER_2018}\n,XA,"AAA,broken\n`), /UN\/LOCODE 2018-1 code list: malformed CSV: unterminated quoted field/],
    ["the right header, no ports", csv(HEADER_2018, ",XA,CCC,Cville,Cville,,--3-----,RL,0601,,,"), /no location with the port function/],
    ["printable junk", Buffer.from("lorem ipsum dolor\nsit amet\n"), /missing column/],
  ];
  for (const [name, bytes, error] of cases) {
    test(name, () => {
      assert.throws(() => parsePorts({ unlocode2018: bytes }), error);
    });
  }

  test("garbage in an optional input is an error, not an empty join", () => {
    assert.throws(() => parsePorts({ unlocode2018: SMALL_2018, wpi: randomBytes(2048) }), /World Port Index/);
    assert.throws(() => parsePorts({ unlocode2018: SMALL_2018, wpi: csv("a,b", "1,2") }), /World Port Index.*missing column/);
    assert.throws(() => parsePorts({ unlocode2018: SMALL_2018, unlocode2024: SMALL_2018 }), /UN\/LOCODE 2024.*missing column/);
    assert.throws(() => parsePorts({ unlocode2018: SMALL_2018, unlocode2024: csv(HEADER_2024) }), /UN\/LOCODE 2024.*no data rows after the header/);
    assert.throws(() => parsePorts({ unlocode2018: SMALL_2018, subdivisions: Buffer.alloc(0) }), /subdivision codes: the file is empty/);
  });
});
