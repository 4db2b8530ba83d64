import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BUNDLED_DATASETS_DIR } from "../../../src/adapters/importers/bundled-datasets-dir.ts";
import { loadWaterways, parseGates } from "../../../src/adapters/importers/gates.ts";

const bundled = () => JSON.parse(readFileSync(join(BUNDLED_DATASETS_DIR, "chokepoints", "gates.json"), "utf8"));

/** A datasets directory with the PortWatch file and this gates file. */
function withGates(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mds-gates-"));
  cpSync(join(BUNDLED_DATASETS_DIR, "chokepoints"), join(dir, "chokepoints"), { recursive: true });
  writeFileSync(join(dir, "chokepoints", "gates.json"), content);
  return dir;
}

test("the bundled gates give every PortWatch chokepoint a gate, with PortWatch's ids and names, and the extra waterways after them", async () => {
  const { waterways } = await loadWaterways(BUNDLED_DATASETS_DIR);
  assert.equal(waterways.filter((w) => w.portwatch).length, 28);
  assert.deepEqual(
    waterways.slice(0, 3).map((w) => [w.id, w.name]),
    [
      ["chokepoint1", "Suez Canal"],
      ["chokepoint2", "Panama Canal"],
      ["chokepoint3", "Bosporus Strait"],
    ],
  );
  assert.deepEqual(waterways.filter((w) => !w.portwatch).map((w) => w.id), ["kiel-canal", "singapore-strait"]);
  // Each end reaches 3 km further than drawn.
  const dover = waterways.find((w) => w.id === "chokepoint9")!;
  assert.ok(dover.gate.lengthKm > 37 + 5.9 && dover.gate.lengthKm < 37.5 + 6.1, `${dover.gate.lengthKm}`);
});

test("garbage in the gates file is refused with the place and the rule", () => {
  assert.throws(() => parseGates(Buffer.from("{nope")), /gates file: not JSON/);
  assert.throws(() => parseGates(Buffer.from("[]")), /gates file: : /);
  const bad = bundled();
  bad.gates[0].line = [[200, 10], [1, 1]];
  assert.throws(() => parseGates(Buffer.from(JSON.stringify(bad))), /gates file: gates\.0\.line\.0\.0: /);
  const one = bundled();
  one.gates[3].line = [[1, 1]];
  assert.throws(() => parseGates(Buffer.from(JSON.stringify(one))), /gates\.3\.line/);
  const extra = bundled();
  delete extra.extra[0].name;
  assert.throws(() => parseGates(Buffer.from(JSON.stringify(extra))), /extra\.0\.name/);
  const unknown = bundled();
  unknown.gates[0].colour = "red";
  assert.throws(() => parseGates(Buffer.from(JSON.stringify(unknown))), /gates\.0/);
  assert.throws(() => parseGates(Buffer.from(JSON.stringify({ ...bundled(), gates: [{ ...bundled().gates[0], id: "Chokepoint 1" }] }))), /gates\.0\.id/);
});

test("a PortWatch chokepoint without a gate, or a gate for no chokepoint, stops the load", async () => {
  const missing = bundled();
  missing.gates = missing.gates.filter((g: { id: string }) => g.id !== "chokepoint9");
  await assert.rejects(loadWaterways(withGates(JSON.stringify(missing))), /no gate for chokepoint9 \(Dover Strait\)/);
  const stray = bundled();
  stray.gates.push({ ...stray.gates[0], id: "chokepoint29" });
  await assert.rejects(loadWaterways(withGates(JSON.stringify(stray))), /chokepoint29 under "gates" but not in the PortWatch list/);
  const twice = bundled();
  twice.extra.push({ ...twice.extra[0], id: "chokepoint1", name: "Again" });
  await assert.rejects(loadWaterways(withGates(JSON.stringify(twice))), /chokepoint1 occurs twice/);
});
