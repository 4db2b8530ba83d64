/**
 * The rights suite, generated from the operations registry beside the security suite: for
 * every operation's example (examples.ts), for each source its answer rests on, the source
 * is denied one use at a time, and every caller kind asks again over every face that shows
 * the answer (REST, MCP, the page). Where the rule denies the source to that caller and use,
 * nothing of it remains and `withheld` names it (with its rows where rows went); where the
 * rule does not, the answer is the baseline's, to the byte. Alert payloads (what leaves the
 * service: redistribution) are judged the same way through the builders the alert workers use.
 *
 * One service per engine serves every pass: permissions are changed in place on its
 * registry (rights-world.ts, setPermissions). An operation added to the registry is judged
 * the day it lands; one whose example answer names no source fails, unless it is listed in
 * SOURCE_FREE as an answer that carries no sourced fact.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type AlertContent, alertEventBody } from "../../../src/domain/alerts/payload.ts";
import { SourceRegistry } from "../../../src/domain/rights/source.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../../src/main.ts";
import type { Operation } from "../../../src/operations/operation.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import type { Browser } from "../../adapters/web/helpers.ts";
import { ENGINES } from "../../helpers/service.ts";
import { EXAMPLES } from "./examples.ts";
import { HEARD_MMSI, HEARD_NAME, IMO, LINKED_MMSI, mcp, OWN_MMSI, page, type Permissions, type Reply, rest, setPermissions, startWorld, type World } from "./rights-world.ts";

/** Operations whose answers carry no sourced fact (the account's own objects, its usage, the sources list itself). */
const SOURCE_FREE = new Set([
  "usage.get",
  "sources.list",
  "me.stations",
  // A receipt serves back an answer already judged when it was made, as it was sent (the signature covers it); its own envelope names no source.
  "screenings.get",
  // A watchlist's screening is the account's own list, but its rows are the sanctions lists' facts.
  ...OPERATIONS.filter((op) => op.id.startsWith("account.") && op.id !== "account.watchlists.screen").map((op) => op.id),
]);

/**
 * One permission taken away at a time. `api` leaves `web` unset (so it takes `api`'s
 * answer); `api-not-web` keeps `web` on, which a page may still show.
 */
const DENIALS = {
  api: (p: Permissions): Permissions => ({ api: false, redistribution: p.redistribution, commercial: p.commercial }),
  "api-not-web": (p: Permissions): Permissions => ({ api: false, web: true, redistribution: p.redistribution, commercial: p.commercial }),
  web: (p: Permissions): Permissions => ({ ...p, web: false }),
  commercial: (p: Permissions): Permissions => ({ ...p, commercial: false }),
  redistribution: (p: Permissions): Permissions => ({ ...p, redistribution: false }),
};
type Denial = keyof typeof DENIALS;

/**
 * The rule, written from the README and decide.ts, not from the engine: REST and MCP are
 * `api` use, pages `web` use, webhook payloads `redistribution`; a commercial plan needs
 * commercial use on top. `web` unset takes `api`; redistribution needs `api` as well.
 */
function denies(denial: Denial, use: "api" | "web" | "redistribution", commercialCaller: boolean): boolean {
  switch (denial) {
    case "api":
      return true;
    case "api-not-web":
      return use !== "web";
    case "web":
      return use === "web";
    case "commercial":
      return commercialCaller;
    case "redistribution":
      return use === "redistribution";
  }
}

/** Values only one source of the world provides: none may be in an answer that withholds it. */
const ONLY_FROM: Record<string, RegExp> = {
  station: new RegExp(`${LINKED_MMSI}|${HEARD_MMSI}|${HEARD_NAME}|${OWN_MMSI}`),
  portwatch: /Dover Strait/,
};

interface Caller {
  name: string;
  face: "rest" | "mcp" | "page";
  commercial: boolean;
}
const CALLERS: Caller[] = [
  { name: "anonymous", face: "rest", commercial: false },
  { name: "sandbox", face: "rest", commercial: false },
  { name: "sandbox", face: "mcp", commercial: false },
  { name: "commercial plan", face: "rest", commercial: true },
  { name: "commercial plan", face: "mcp", commercial: true },
  { name: "anonymous visitor", face: "page", commercial: false },
  { name: "signed-in viewer (Pro)", face: "page", commercial: true },
];

/** One thing to ask again in every pass: an operation's example as one caller, or a page. */
interface Target {
  label: string;
  caller: Caller;
  /** The operations behind it (a page runs several). */
  ops: string[];
  ask(): Promise<Reply>;
  baseline: Reply;
}

/** The entry of the sources file that governs a source id as answers name it (a shared station's by `station`). */
const entryOf = (id: string) => (id.startsWith("station:") ? "station" : id);
const isFrom = (id: string, entry: string) => entryOf(id) === entry;
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The entries an answer rests on: the sources it names (REST, MCP), or whose attribution its page shows. */
function entriesOf(r: Reply, registry: SourceRegistry, stationId: number): string[] {
  if (r.status !== 200) return [];
  if (r.body) return [...new Set(((r.body.sources ?? []) as string[]).map(entryOf))];
  const shown = (id: string) => r.text.includes(escapeHtml(registry.get(id)!.attribution));
  return registry
    .all()
    .map((s) => s.id)
    .filter((id) => (id === "station" ? shown(`station:${stationId}`) : shown(id)));
}

function urlOf(op: Operation, params: Record<string, string>, query?: Record<string, string>): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  return query ? `${path}?${new URLSearchParams(query).toString()}` : path;
}

/** Pages of operations whose answers give no `page` of their own. */
const PAGE_OF: Record<string, string> = {
  search: "/search?q=rotterdam",
  "vessels.track": `/vessel/${IMO}`,
  "waterways.transits": "/waterway/chokepoint9",
  "waterways.list": "/waterway/chokepoint9",
};

async function targetsOf(w: World): Promise<Target[]> {
  const { t } = w;
  // Every question is asked at one instant (answers carry times; the examples' own requests move the clock on).
  const at = t.clock.t;
  const still = <T>(ask: () => Promise<T>) => () => {
    t.clock.t = at;
    return ask();
  };
  const targets: Target[] = [];
  const pages = new Map<string, string[]>();
  let visitor = 0;
  for (const op of OPERATIONS) {
    const example = EXAMPLES[op.id];
    if (!example) continue;
    const commercialKey = example.plan === "team" ? w.keys.team : w.keys.scale;
    // Examples that make objects of their own (and their writes) are asked once, by their owner: their answers carry the account's own things.
    const once = Boolean(example.owned || example.body);
    const owned = example.owned ? await example.owned({ t, key: commercialKey, accountId: await accountOf(w, commercialKey) }) : {};
    const url = urlOf(op, { ...example.path, ...owned }, example.query);
    const asks: [Caller, () => Promise<Reply>][] = [];
    for (const caller of CALLERS) {
      if (once && !(caller.name === "commercial plan" && caller.face === "rest")) continue;
      const key = caller.name === "sandbox" ? w.keys.sandbox : caller.name === "commercial plan" ? commercialKey : null;
      if (caller.face === "rest" && (key !== null || op.auth === "optional")) {
        asks.push([caller, still(() => rest(t, key, op.method, url, example.body, `10.7.${(++visitor >> 8) & 255}.${visitor & 255}`))]);
      }
      if (caller.face === "mcp" && op.tool && key !== null) asks.push([caller, still(() => mcp(t, key, op.tool!, { ...example.path, ...example.query }))]);
    }
    for (const [caller, ask] of asks) {
      const baseline = await ask();
      targets.push({ label: `${caller.name} ${caller.face === "rest" ? `REST ${op.method} ${url}` : `MCP ${op.tool}`} (${op.id})`, caller, ops: [op.id], ask, baseline });
      // The page that shows the answer, by the `page` the answer gives (or the table above).
      const link = typeof baseline.body?.page === "string" ? new URL(baseline.body.page, "http://x").pathname : PAGE_OF[op.id];
      if (link && baseline.status === 200) pages.set(link, [...new Set([...(pages.get(link) ?? []), op.id])]);
    }
  }
  for (const [link, ops] of pages) {
    for (const caller of CALLERS.filter((c) => c.face === "page")) {
      const viewer: Browser | null = caller.commercial ? w.viewer : null;
      const ask = still(() => page(t, link, viewer));
      targets.push({ label: `${caller.name} page ${link}`, caller, ops, ask, baseline: await ask() });
    }
  }
  return targets;
}

const accounts = new Map<string, string>();
async function accountOf(w: World, key: string): Promise<string> {
  if (!accounts.has(key)) {
    const r = await rest(w.t, key, "GET", "/api/v1/usage");
    accounts.set(key, r.body!.data.accountId ?? r.body!.accountId);
  }
  return accounts.get(key)!;
}

/** What a denied source must leave behind in one answer: nothing of it, and its withheld entries. */
function assertWithheld(target: Target, got: Reply, entry: string, registry: SourceRegistry, stationId: number, what: string): void {
  const source = registry.get(entry === "station" ? `station:${stationId}` : entry)!;
  assert.equal(got.status, target.baseline.status, `${what}: status`);
  if (ONLY_FROM[entry]) assert.doesNotMatch(got.text, ONLY_FROM[entry], `${what}: a value only ${entry} gives`);
  if (got.body) {
    const body = got.body;
    assert.deepEqual(((body.sources ?? []) as string[]).filter((id) => isFrom(id, entry)), [], `${what}: sources name ${entry}`);
    assert.ok(!JSON.stringify(body.attribution ?? []).includes(JSON.stringify(source.attribution).slice(1, -1)), `${what}: ${entry}'s attribution`);
    const naming = ((body.withheld ?? []) as { section: string; sources: string[]; rows?: number }[]).filter((w) => w.sources.some((id) => isFrom(id, entry)));
    assert.ok(naming.length > 0, `${what}: withheld names ${entry}: ${JSON.stringify(body.withheld)}`);
    // Rows that went are counted: a list that lost k rows has entries naming the source with at least k rows.
    const before = target.baseline.body!;
    if (Array.isArray(before.data) && Array.isArray(body.data) && body.data.length < before.data.length) {
      const rows = naming.reduce((n, w) => n + (w.rows ?? 0), 0);
      assert.ok(rows >= before.data.length - body.data.length, `${what}: ${before.data.length - body.data.length} rows went, withheld counts ${rows}: ${JSON.stringify(body.withheld)}`);
    }
  } else {
    const sourcesSection = /<h2 id="sources-h">[\s\S]*?<\/section>/.exec(got.text)?.[0] ?? "";
    assert.ok(!sourcesSection.includes(escapeHtml(source.attribution)), `${what}: the page attributes ${entry}`);
    const withheldSection = /<h2 id="withheld-h">[\s\S]*?<\/section>/.exec(got.text)?.[0] ?? "";
    // By its name, the source id beside it (the section shows names, not ids).
    const named = entry === "station" ? `title="station:${stationId}"` : `title="${entry}"`;
    assert.ok(withheldSection.includes(named), `${what}: the page's Withheld section names ${entry}: ${withheldSection}`);
  }
}

for (const engine of ENGINES) {
  describe(`rights suite generated from the registry (${engine})`, () => {
    let w: World;
    let targets: Target[];
    before(async () => {
      w = await startWorld(engine);
      targets = await targetsOf(w);
    });
    after(() => w?.close());

    it("every operation has a denial example: its example answer names a source, or it carries no sourced fact (SOURCE_FREE)", () => {
      const registry = w.t.service.services.sources;
      const named = (id: string) => targets.filter((x) => x.ops.includes(id)).flatMap((x) => entriesOf(x.baseline, registry, w.stationId));
      const wrong: string[] = [];
      for (const op of OPERATIONS) {
        if (!EXAMPLES[op.id]) wrong.push(`${op.id}: no example in test/operations/security/examples.ts`);
        else if (SOURCE_FREE.has(op.id)) {
          if (named(op.id).length > 0) wrong.push(`${op.id} is listed as source-free, but its answers name ${named(op.id).join(", ")}`);
        } else if (named(op.id).length === 0) wrong.push(`${op.id}: no caller's example answer names a source, so the suite denies nothing in it; give it an example that does, or list it in SOURCE_FREE`);
      }
      assert.deepEqual(wrong, []);
    });

    it("the baseline shows what the passes take away (so the checks can fail)", () => {
      const text = (label: RegExp) => targets.filter((x) => label.test(x.label)).map((x) => x.baseline.text).join("\n");
      assert.match(text(/commercial plan REST .*\(ports\.get\)/), new RegExp(String(LINKED_MMSI)), "the port's recent call by the station's ship");
      assert.match(text(/commercial plan REST .*\(waterways\.list\)/), /Dover Strait/);
      assert.match(text(/commercial plan REST .*\(vessels\.get\)/), new RegExp(String(LINKED_MMSI)), "the station's link of the MMSI to the IMO");
      assert.match(text(/signed-in viewer \(Pro\) page \/vessel\//), new RegExp(String(LINKED_MMSI)));
    });

    it("each source denied per use: gone where the rule denies it to the caller, the baseline's answer where it does not", async () => {
      const registry = w.t.service.services.sources;
      const entries = [...new Set(targets.flatMap((x) => entriesOf(x.baseline, registry, w.stationId)))].sort();
      assert.ok(entries.length >= 8, `sources named by the examples: ${entries.join(", ")}`);
      const failures: string[] = [];
      const judged = { withheld: new Set<string>(), kept: new Set<string>() };
      for (const entry of entries) {
        const relevant = targets.filter((x) => entriesOf(x.baseline, registry, w.stationId).includes(entry));
        for (const denial of Object.keys(DENIALS) as Denial[]) {
          const undo = setPermissions(registry, entry, DENIALS[denial](registry.get(entry)!.permissions));
          try {
            for (const target of relevant) {
              const use = target.caller.face === "page" ? "web" : "api";
              const what = `${entry} denied ${denial}, ${target.label}`;
              const got = await target.ask();
              try {
                const denied = denies(denial, use, target.caller.commercial);
                judged[denied ? "withheld" : "kept"].add(`${target.caller.name} ${target.caller.face}`);
                if (denied) assertWithheld(target, got, entry, registry, w.stationId, what);
                else assert.deepEqual(got.body ? got.body : got.text, target.baseline.body ? target.baseline.body : target.baseline.text, `${what}: the rule does not deny it, so the answer is the baseline's`);
              } catch (e) {
                failures.push((e as Error).message.split("\n")[0]!);
                if (process.env.RIGHTS_DEBUG && failures.length < 3) {
                  const a = JSON.stringify(got.body ?? got.text), b = JSON.stringify(target.baseline.body ?? target.baseline.text);
                  let i = 0;
                  while (a[i] === b[i] && i < a.length) i++;
                  console.log(what, "\nGOT ", a.slice(i - 150, i + 150), "\nBASE", b.slice(i - 150, i + 150));
                }
              }
            }
          } finally {
            undo();
          }
        }
      }
      assert.deepEqual(failures, []);
      // Every caller kind and face was judged both ways: denied something, and kept something the rule let through.
      const all = CALLERS.map((c) => `${c.name} ${c.face}`);
      assert.deepEqual([[...judged.withheld].sort(), [...judged.kept].sort()], [[...all].sort(), [...all].sort()]);
    });
  });
}

describe("rights suite: alert payloads (redistribution, what leaves the service)", () => {
  const shipped = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8")) as { sources: { id: string; permissions: Permissions }[] };
  /** A zone entry as the zone worker builds it: heard by a shared station, naming the ship it heard. */
  const zoneEntry: AlertContent = {
    alertId: 1,
    eventId: 2,
    type: "zone_enter",
    created: Date.parse("2026-11-20T12:00:00Z"),
    occurredAt: Date.parse("2026-11-20T11:59:00Z"),
    derived: true,
    subject: { kind: "vessel", imo: IMO, mmsi: LINKED_MMSI, unlocode: null, name: "MAERSK ABERDEEN" },
    subjectSources: ["station:7"],
    followId: null,
    zone: { id: "zone_1", name: "Harbour" },
    savedSearch: null,
    factBase: { t: "zone_enter", zoneId: "zone_1", zone: "Harbour" },
    factSources: [],
    text: `MAERSK ABERDEEN (IMO ${IMO}) entered your zone Harbour.`,
    parts: [{ field: "position", sources: ["station:7"], value: { lat: 60.15, lon: 24.95, source: "station:7" } }],
  };
  const body = (denied: string | null, denial: Denial | null, commercialUse: boolean) => {
    const registry = new SourceRegistry(shipped.sources.map((s) => (s.id === denied && denial ? { ...s, permissions: DENIALS[denial](s.permissions) } : s)) as never);
    return alertEventBody(zoneEntry, { sources: registry, rights: { commercialUse }, baseUrl: "https://mds.example" });
  };

  it("cleared, a zone alert names the vessel and carries its position", () => {
    const alert = JSON.parse(body(null, null, true)).data.alert;
    assert.equal(alert.subject.mmsi, LINKED_MMSI);
    assert.equal(alert.fact.position.lat, 60.15);
    assert.deepEqual(alert.withheld, []);
  });

  for (const commercialUse of [false, true]) {
    for (const denial of Object.keys(DENIALS) as Denial[]) {
      const denied = denies(denial, "redistribution", commercialUse);
      it(`station denied ${denial}, ${commercialUse ? "a commercial" : "a non-commercial"} account: ${denied ? "no vessel, no position, both withheld" : "the cleared payload"}`, () => {
        const text = body("station", denial, commercialUse);
        if (!denied) return assert.equal(text, body(null, null, commercialUse));
        assert.doesNotMatch(text, new RegExp(`${LINKED_MMSI}|${IMO}|MAERSK|60\\.15`));
        const alert = JSON.parse(text).data.alert;
        assert.deepEqual(alert.subject, { kind: "vessel", ref: null, imo: null, mmsi: null, unlocode: null, name: null, url: null });
        assert.equal(alert.links.entity, null);
        assert.deepEqual(alert.fact, { t: "zone_enter", zoneId: "zone_1", zone: "Harbour" }, "the zone entry itself is the service's own evaluation");
        assert.deepEqual(alert.withheld.map((w: { fields: string[] }) => w.fields).sort(), [["fact.position"], ["subject", "text"]]);
        assert.ok(alert.withheld.every((w: { sources: string[] }) => w.sources.includes("station:7")));
        assert.deepEqual(alert.sources, []);
      });
    }
  }

  for (const other of shipped.sources.filter((s) => s.permissions.api && s.id !== "station")) {
    it(`with ${other.id} denied every use, a zone alert is unchanged (it rests on no ${other.id} fact)`, () => {
      const registry = new SourceRegistry(shipped.sources.map((s) => (s.id === other.id ? { ...s, permissions: { api: false, redistribution: false, commercial: false } } : s)) as never);
      assert.equal(alertEventBody(zoneEntry, { sources: registry, rights: { commercialUse: true }, baseUrl: "https://mds.example" }), body(null, null, true));
    });
  }
});
