import { join } from "node:path";
import { z } from "zod";
import { buildGate } from "../../domain/derived/gates.ts";
import type { Waterway } from "../../domain/derived/waterway.ts";
import { loadBundledChokepoints } from "./chokepoints.ts";
import { readSource } from "./read-source.ts";

/**
 * The transit gates (`datasets/chokepoints/gates.json`, see its PROVENANCE.md) joined to
 * the PortWatch chokepoints: every chokepoint must have a gate and every PortWatch gate a
 * chokepoint, so a file that drifts from the PortWatch list fails loudly at start.
 */
export const BUNDLED_GATES_FILE = join("chokepoints", "gates.json");

const lonLat = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
const GateRow = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, "lower-case letters, digits and hyphens"),
  name: z.string().min(1).optional(),
  line: z.array(lonLat).min(2).max(50),
  directions: z.strictObject({ leftToRight: z.string().min(1), rightToLeft: z.string().min(1) }),
  maxGapMinutes: z.number().int().min(1).max(24 * 60),
  status: z.enum(["NE", "P", "H", "E"]),
  drawn: z.string().min(1),
});
const GatesFile = z.strictObject({ version: z.string().min(1), note: z.string().optional(), gates: z.array(GateRow), extra: z.array(GateRow.required({ name: true })) });

export type GatesFileContent = z.infer<typeof GatesFile>;

export function parseGates(bytes: Buffer): GatesFileContent {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new Error(`gates file: not JSON (${(e as Error).message})`);
  }
  const parsed = GatesFile.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(`gates file: ${i.path.join(".")}: ${i.message}`);
  }
  return parsed.data;
}

const slugify = (v: string) => v.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");

/** Every waterway with its gate, PortWatch's 28 first in id order, then the extra ones. */
export async function loadWaterways(datasetsDir: string): Promise<{ waterways: Waterway[]; version: string }> {
  const [points, file] = await Promise.all([loadBundledChokepoints(datasetsDir), readSource(join(datasetsDir, BUNDLED_GATES_FILE)).then(parseGates)]);
  const gates = new Map(file.gates.map((g) => [g.id, g]));
  const waterways: Waterway[] = [];
  for (const p of points) {
    const g = gates.get(p.id);
    if (!g) throw new Error(`gates file: no gate for ${p.id} (${p.name})`);
    gates.delete(p.id);
    waterways.push({
      id: p.id,
      name: p.name,
      slug: p.slug,
      point: { lat: p.lat, lon: p.lon },
      portwatch: true,
      gate: buildGate({ id: p.id, name: p.name, line: g.line, directions: g.directions, maxGapMinutes: g.maxGapMinutes }),
      gateStatus: g.status,
      gateDrawn: g.drawn,
    });
  }
  const stray = [...gates.keys()];
  if (stray.length > 0) throw new Error(`gates file: ${stray.join(", ")} under "gates" but not in the PortWatch list (put extra waterways under "extra")`);
  for (const g of file.extra) {
    if (waterways.some((w) => w.id === g.id)) throw new Error(`gates file: ${g.id} occurs twice`);
    waterways.push({
      id: g.id,
      name: g.name,
      slug: slugify(g.name),
      point: null,
      portwatch: false,
      gate: buildGate({ id: g.id, name: g.name, line: g.line, directions: g.directions, maxGapMinutes: g.maxGapMinutes }),
      gateStatus: g.status,
      gateDrawn: g.drawn,
    });
  }
  return { waterways, version: file.version };
}
