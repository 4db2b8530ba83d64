/**
 * The multi-process run of CI (issue 19): one PostgreSQL database and one Redis namespace,
 * fresh per run, served by three API processes, one ingest process and two workers, each
 * `mds serve --role ...` as an operator starts them. It checks, and exits 1 on any miss:
 *
 *   1. 200 concurrent paid calls spread over the three API processes, on an account with
 *      50 credits: exactly 50 succeed, the rest are 402, and the database learns 50.
 *   2. A key's rate limit holds across the three: no one-second window lets more through
 *      than the key's rate.
 *   3. `kill -9` under load, of an API process, the ingest process and a worker, each in
 *      turn: every call answered 200 is charged; every station line acknowledged is
 *      stored; every vessel that enters the zone raises exactly one alert; and every alert
 *      event reaches the run's own webhook receiver at least once, with no vessel's entry
 *      arriving as two events. The worker is killed with attempts in flight (the receiver
 *      holds its answers until then), and each attempt it cut arrives again once its lease
 *      has expired.
 *
 * The receiver is an HTTPS server on a loopback address of its own, port 8443. The service
 * processes are started through test/helpers/serve-with-test-receiver.ts, which hands them
 * the webhook transport the in-process webhook tests use: a test name resolving to that one
 * address, counted as public, and the test CA trusted. Everything else about them is
 * `mds serve --role ...`.
 *
 *   DATABASE_URL=postgres://... REDIS_URL=redis://... node scripts/multiprocess.ts
 *
 * With `--postgres-alone` the same processes run without Redis, as a deployment without it
 * does: credits are charged in PostgreSQL (a batch per process and event-loop turn,
 * docs/adr/0001-credit-ledger.md) and must be just as exact, and every kill just as harmless.
 * Each process then keeps its own rate window, so part 2 checks that no process lets more
 * through than the key's rate, not the three together.
 *
 *   DATABASE_URL=postgres://... node scripts/multiprocess.ts --postgres-alone
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Agent, request } from "undici";
import { formatId } from "../src/domain/ids.ts";
import { PROJECT_ROOT } from "../src/main.ts";
import { type ServeProcess, startServe, waitForStatus } from "../test/helpers/serve-process.ts";
import { positionLines, sendStationLines } from "../test/helpers/station-sender.ts";
import { HOOK_HOST, type Received, startReceiver, testPki } from "../test/helpers/webhooks.ts";

const ADMIN = process.env.DATABASE_URL;
const POSTGRES_ALONE = process.argv.includes("--postgres-alone");
const REDIS_URL = POSTGRES_ALONE ? undefined : process.env.REDIS_URL;
if (!ADMIN || (!REDIS_URL && !POSTGRES_ALONE)) {
  process.stderr.write("multiprocess: set DATABASE_URL and REDIS_URL (PostgreSQL and Redis to run on), or DATABASE_URL with --postgres-alone\n");
  process.exit(1);
}

// The calls' own connections, idle ones closed before the server's keep-alive timeout (5 s)
// does: a call is never written on a connection the server is closing, which would read as lost.
const newAgent = () => new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000, connections: 256 });
let agent = newAgent();
/** The `mds` commands run synchronously and stall this process's timers: start each part on new connections. */
async function freshConnections(): Promise<void> {
  await agent.close();
  agent = newAgent();
}

const started = Date.now();
const say = (line: string) => process.stdout.write(`multiprocess ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}\n`);

const run = randomBytes(5).toString("hex");
const dbName = `mds_mp_${run}`;
const dataDir = mkdtempSync(join(tmpdir(), "mds-mp-"));
const dbUrl = new URL(ADMIN);
dbUrl.pathname = `/${dbName}`;
// A loopback address no webhook test uses (they take 127.0.0.N), so a run beside them binds 8443 freely.
const hookAddress = `127.${64 + (randomBytes(1)[0]! % 64)}.${randomBytes(1)[0]! % 250}.${2 + (randomBytes(1)[0]! % 250)}`;
const env: Record<string, string> = {
  DATABASE_URL: dbUrl.toString(),
  // Its own Redis namespace: CI runs on a shared Redis.
  ...(REDIS_URL ? { REDIS_URL, REDIS_PREFIX: `mds-mp-${run}` } : {}),
  DATA_DIR: dataDir,
  // Every process seals and opens webhook secrets with one key.
  SECRETS_KEY: randomBytes(32).toString("base64"),
  LOG_LEVEL: "warn",
  TEST_HOOK_HOST: HOOK_HOST,
  TEST_HOOK_ADDRESS: hookAddress,
  TEST_HOOK_CA: testPki().ca,
};
const SERVE_ENTRY = join(PROJECT_ROOT, "test/helpers/serve-with-test-receiver.ts");

/** This run's environment over the caller's, without a REDIS_URL the caller has when the run is PostgreSQL alone. */
function processEnv(): Record<string, string | undefined> {
  const base: Record<string, string | undefined> = { ...process.env, ...env };
  if (!REDIS_URL) delete base.REDIS_URL;
  return base;
}

function mds(args: string[]): string {
  return execFileSync(process.execPath, [join(PROJECT_ROOT, "bin/mds.ts"), ...args], { env: processEnv(), encoding: "utf8" }).trim();
}

const procs = new Set<ServeProcess>();
async function serve(role: string): Promise<ServeProcess> {
  const p = await startServe(["--role", role], env, 240_000, SERVE_ENTRY);
  procs.add(p);
  void p.exited.then(() => procs.delete(p));
  return p;
}
async function kill9(p: ServeProcess): Promise<void> {
  p.child.kill("SIGKILL");
  await p.exited;
}

const admin = new pg.Client({ connectionString: ADMIN });
let lastFetchError = "";
const serverErrors: string[] = [];
let db: pg.Pool | null = null;

/** What the receiver got, per event id: how often, and the vessel and alert it was about. */
const arrived = new Map<string, { times: number; mmsi: number | null; alert: string | null }>();
function noteArrival(rec: Received): void {
  const eventId = String(rec.headers["service-event-id"] ?? "");
  let mmsi: number | null = null;
  let alert: string | null = null;
  try {
    const body = JSON.parse(rec.raw.toString("utf8")) as { data?: { alert?: { id?: string; subject?: { mmsi?: number | null } } } };
    mmsi = body.data?.alert?.subject?.mmsi ?? null;
    alert = body.data?.alert?.id ?? null;
  } catch {
    // Counted by its header all the same; a body that is not JSON shows as an event without a vessel.
  }
  const seen = arrived.get(eventId);
  arrived.set(eventId, { times: (seen?.times ?? 0) + 1, mmsi, alert });
}
/**
 * While `holding`, the receiver answers nothing: the attempts stay in flight in the worker
 * that sent them, so the worker's kill cuts them. Held answers are let go soon after, well
 * within an attempt's 10 s deadline, so the survivors' attempts succeed.
 */
const held: { eventId: string; answer: () => void; firstAt: number }[] = [];
let holding = true;
/** Events whose attempt was cut by a worker's death, before the receiver answered. */
const cut = new Set<string>();
const receiver = await startReceiver(hookAddress, {
  behaviour: (rec, res) => {
    noteArrival(rec);
    const answer = () => {
      res.statusCode = 204;
      res.end();
    };
    if (!holding) return answer();
    const eventId = String(rec.headers["service-event-id"] ?? "");
    res.on("close", () => {
      if (!res.writableEnded) cut.add(eventId);
    });
    held.push({ eventId, answer, firstAt: Date.now() });
  },
});
function letGo(): void {
  holding = false;
  for (const h of held.splice(0)) if (!cut.has(h.eventId)) h.answer();
}

async function main(): Promise<void> {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  mds(["migrate"]);
  db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  db.on("error", () => undefined);

  // Workers first: one imports the bundled data, the other waits on the job lock.
  say(`starting 2 workers, 1 ingest and 3 API processes on ${REDIS_URL ? "PostgreSQL + Redis" : "PostgreSQL alone"}`);
  const workers = await Promise.all([serve("worker"), serve("worker")]);
  let ingest = await serve("ingest");
  const apis = await Promise.all([serve("api"), serve("api"), serve("api")]);
  for (const p of [...workers, ingest, ...apis]) await waitForStatus(`${p.base}/readyz`, 200, 240_000);
  say(`all six ready: api ${apis.map((a) => a.base).join(" ")}`);

  // 1. Exact credits across the three API processes.
  const paid = JSON.parse(mds(["keys", "create", "--plan", "developer", "--json"])) as { key: string; account: string };
  mds(["accounts", "set", paid.account, "--monthly-credits-total", "50", "--rate", "100000"]);
  const call = (base: string, key: string) =>
    request(`${base}/api/v1/ports?country=NL&limit=1`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` } }).then(
      async (r) => {
        const body = await r.body.text();
        // A server error is named by its code in the report, so a 503 says which store it waited on.
        if (r.statusCode >= 500) serverErrors.push(`${r.statusCode} ${body.match(/"code":"([a-z_]+)"/)?.[1] ?? "?"}: ${body.match(/"message":"([^"]{0,160})/)?.[1] ?? body.slice(0, 160)}`);
        return r.statusCode;
      },
      (e: unknown) => {
        lastFetchError = String(e);
        return 0;
      },
    );
  await freshConnections();
  const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => call(apis[i % 3]!.base, paid.key)));
  const tally = (list: number[]) => list.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  say(`200 concurrent paid calls on 50 credits: ${JSON.stringify(tally(statuses))}${lastFetchError ? ` (${lastFetchError})` : ""}`);
  assert.equal(statuses.filter((s) => s === 200).length, 50, "exactly 50 successes");
  assert.equal(statuses.filter((s) => s === 402).length, 150, "the other 150 are credits_exhausted");
  await waitFor(async () => (await usedInDatabase(paid.account)) === 50, 5_000, "the database learns the 50 credits");

  // 2. One key's rate limit across the three processes (PostgreSQL alone: in each of them).
  const limited = JSON.parse(mds(["keys", "create", "--plan", "developer", "--json"])) as { key: string; account: string };
  mds(["accounts", "set", limited.account, "--monthly-credits", "100000", "--rate", "5"]);
  await freshConnections();
  const sent: { second: number; status: number }[] = [];
  await Promise.all(
    Array.from({ length: 60 }, async (_, i) => {
      const status = await call(apis[i % 3]!.base, limited.key);
      sent.push({ second: Math.floor(Date.now() / 1000), status });
    }),
  );
  const ok = sent.filter((s) => s.status === 200);
  const windows = new Set(sent.map((s) => s.second)).size;
  say(`60 concurrent calls at 5/s over ${windows} second(s): ${JSON.stringify(tally(sent.map((s) => s.status)))}${lastFetchError ? ` (${lastFetchError})` : ""}`);
  // A window is Redis's second (or each process's own), not the client's: a burst can touch one more window than the client saw.
  if (REDIS_URL) {
    assert.ok(ok.length <= 5 * (windows + 1), `${ok.length} successes in ${windows} second(s) at 5/s`);
    assert.ok(ok.length < 15, "fewer than three processes' own limits would let through");
  } else {
    // Without Redis each process counts the key's calls on its own: at most the rate in each, three times it in all.
    assert.ok(ok.length <= 3 * 5 * (windows + 1), `${ok.length} successes in ${windows} second(s) at 5/s in each of 3 processes`);
  }
  assert.ok(sent.some((s) => s.status === 429), "the rest are rate_limited");
  assert.ok(sent.every((s) => s.status === 200 || s.status === 429), "every call answered: allowed or rate_limited");

  // 3. kill -9 under load.
  const pro = JSON.parse(mds(["keys", "create", "--plan", "pro", "--json"])) as { key: string; account: string };
  // Credits enough for the whole load: at the pipeline's speed a plan's allowance ran out mid-run, and every call should reach the charge.
  mds(["accounts", "set", pro.account, "--rate", "100000", "--monthly-credits-total", "1000000000"]);
  const station = JSON.parse(mds(["stations", "create", "--account", pro.account, "--name", "roof", "--json"])) as { secret: string };
  const auth = { authorization: `Bearer ${pro.key}`, "content-type": "application/json" };
  const zone = await fetch(`${apis[0]!.base}/api/v1/account/zones`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Harbour", geometry: { type: "Polygon", coordinates: [[[4.0, 52.0], [4.2, 52.0], [4.2, 52.2], [4.0, 52.2], [4.0, 52.0]]] } }),
  });
  assert.ok(zone.ok, await zone.text());
  const hook = await fetch(`${apis[1]!.base}/api/v1/account/webhooks`, { method: "POST", headers: auth, body: JSON.stringify({ url: `https://${HOOK_HOST}:8443/mds` }) });
  assert.ok(hook.ok, await hook.text());
  // The ingest and worker processes re-read zones every 15 s; wait until the zone is theirs.
  await new Promise((r) => setTimeout(r, 17_000));

  await freshConnections();
  // Paid load on all three API processes while processes are killed.
  const load = { ok: 0, cut: 0, other: [] as number[], stop: false };
  const loader = (async () => {
    let i = 0;
    while (!load.stop) {
      const alive = apis.filter((a) => procs.has(a));
      const batch = await Promise.all(Array.from({ length: 12 }, () => call(alive[i++ % alive.length]!.base, pro.key)));
      for (const s of batch) {
        if (s === 200) load.ok++;
        else if (s === 0) load.cut++;
        else load.other.push(s);
      }
    }
  })();

  // Vessels that enter the zone: two fixes outside, then two inside, sent as a station does, in rounds.
  const vessels = Array.from({ length: 60 }, (_, i) => 245_000_000 + i);
  let t = Date.now() - 60 * 60_000;
  const rounds = [
    positionLines(vessels, (t += 10_000), { lat: 52.1, lon: 3.9 }),
    positionLines(vessels, (t += 10_000), { lat: 52.1, lon: 3.9 }),
    positionLines(vessels, (t += 10_000), { lat: 52.1, lon: 4.1 }),
    positionLines(vessels, (t += 10_000), { lat: 52.1, lon: 4.1 }),
  ];
  let acknowledged = 0;
  const sendRound = async (lines: string[]) => {
    // Resend from the first line not acknowledged, to whichever ingest process is up.
    let done = 0;
    while (done < lines.length) {
      const acked = await sendStationLines(ingest.tcpPort!, station.secret, lines.slice(done));
      done += acked;
      if (acked === 0) await new Promise((r) => setTimeout(r, 200));
    }
    acknowledged += lines.length;
  };
  await sendRound(rounds[0]!);
  await sendRound(rounds[1]!);

  say("kill -9: one API process under paid load");
  await kill9(apis[2]!);
  apis[2] = await serve("api");
  await waitForStatus(`${apis[2]!.base}/readyz`, 200, 120_000);

  say("kill -9: the ingest process, between and during rounds");
  const third = sendRound(rounds[2]!);
  await kill9(ingest);
  ingest = await serve("ingest");
  await third;
  await sendRound(rounds[3]!);

  // A worker dies with webhook attempts in flight. The receiver holds its answers until then.
  // Each worker claims the deliveries due when it looks, so one of the two may hold them all:
  // if the first killed held none, the other is killed too, and both are restarted.
  await waitFor(async () => held.length > 0, 60_000, "a webhook attempt in flight");
  await waitFor(async () => held.length >= vessels.length || Date.now() - held[0]!.firstAt > 4_000, 10_000, "attempts in flight");
  const inFlight = held.length;
  const killed: number[] = [];
  for (const w of [0, 1]) {
    say(`kill -9: worker ${w + 1} with ${inFlight} webhook attempts in flight at the receiver`);
    await kill9(workers[w]!);
    killed.push(w);
    await new Promise((r) => setTimeout(r, 500));
    if (cut.size > 0) break;
  }
  letGo();
  say(`the kill cut ${cut.size} attempts before the receiver answered; the others answered`);
  assert.ok(cut.size > 0, "the kill cut attempts in flight");
  for (const w of killed) workers[w] = await serve("worker");

  load.stop = true;
  await loader;
  say(`paid calls under kills: ${load.ok} answered 200, ${load.cut} cut off by a kill, other answers ${JSON.stringify(tally(load.other))}`);
  for (const [error, n] of Object.entries(serverErrors.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e]: (acc[e] ?? 0) + 1 }), {}))) say(`  ${n} x ${error}`);

  // Every acknowledged station line is stored.
  const stored = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM positions WHERE mmsi BETWEEN 245000000 AND 245000059`);
  say(`station lines acknowledged ${acknowledged}, stored ${stored.rows[0]!.n}`);
  assert.equal(stored.rows[0]!.n, acknowledged, "every acknowledged line is stored, each once");

  // Every 200 was charged; no more than the calls cut off by a kill were charged unanswered.
  await waitFor(async () => (await usedInDatabase(pro.account)) >= load.ok, 15_000, "the database learns every answered charge (a batch its dead taker held comes 10 s late)").catch(async (e: unknown) => {
    say(`credits in the database ${await usedInDatabase(pro.account)} for ${load.ok} answered calls`);
    throw e;
  });
  const charged = await usedInDatabase(pro.account);
  say(`credits charged ${charged} for ${load.ok} answered calls`);
  assert.ok(charged >= load.ok, "every answered call is charged");
  assert.ok(charged - load.ok <= load.cut, "charged and not answered: only calls cut off by the kill");

  // Each vessel entered once: one alert each.
  await waitFor(async () => (await alertsPerVessel()).size === vessels.length, 60_000, "an entry alert for every vessel");
  const per = await alertsPerVessel();
  const doubled = [...per].filter(([, n]) => n !== 1);
  say(`zone entries: ${per.size} vessels, doubled ${doubled.length}`);
  assert.deepEqual(doubled, [], "no alert doubled");
  // Every alert event at the receiver. The worker killed may have held a lease: its deliveries
  // are taken over once the lease (60 s) expires, and one it sent just before dying comes again.
  const events = await db.query<{ id: number }>(`SELECT id::int AS id FROM webhook_events WHERE type = 'alert.zone_enter'`);
  const wanted = events.rows.map((r) => formatId("evt", r.id));
  assert.equal(wanted.length, vessels.length, "one alert event per vessel");
  const missing = () => wanted.filter((id) => !arrived.has(id));
  await waitFor(async () => missing().length === 0, 150_000, `every alert event at the receiver (missing ${missing().length})`).catch((e: unknown) => {
    say(`not received: ${missing().slice(0, 10).join(" ")}; received ids look like ${[...arrived.keys()].slice(0, 3).join(" ")}`);
    throw e;
  });
  // The attempts the kill cut are sent again, once their leases (60 s) expire: at least once, not at most once.
  const notAgain = () => [...cut].filter((id) => (arrived.get(id)?.times ?? 0) < 2);
  await waitFor(async () => notAgain().length === 0, 150_000, `every attempt cut by the kill sent again (${notAgain().length} not)`);
  const received = [...arrived.values()];
  const redelivered = received.filter((a) => a.times > 1).length;
  const eventsPerVessel = new Map<number | null, Set<string>>();
  for (const [id, a] of arrived) eventsPerVessel.set(a.mmsi, (eventsPerVessel.get(a.mmsi) ?? new Set()).add(id));
  const twice = [...eventsPerVessel].filter(([mmsi, ids]) => mmsi === null || ids.size !== 1);
  const alertIds = new Set(received.map((a) => a.alert));
  say(`receiver: ${arrived.size} distinct events for ${eventsPerVessel.size} vessels, ${redelivered} of them arrived more than once`);
  assert.equal(arrived.size, vessels.length, "the receiver got one event per vessel, no other");
  assert.deepEqual(twice, [], "no vessel's entry arrived as two events (nor one without its vessel)");
  assert.equal(alertIds.size, vessels.length, "each event about an alert of its own");
  say("every alert event reached the receiver at least once; none doubled");
  say("passed");
}

async function usedInDatabase(account: string): Promise<number> {
  const r = await db!.query<{ used: number }>("SELECT coalesce(sum(used), 0)::int AS used FROM credit_usage WHERE account_id = $1", [account]);
  return r.rows[0]!.used;
}

async function alertsPerVessel(): Promise<Map<number, number>> {
  const r = await db!.query<{ detail: string }>("SELECT detail FROM alerts WHERE type = 'zone_enter'");
  const per = new Map<number, number>();
  for (const row of r.rows) {
    const mmsi = (JSON.parse(row.detail) as { mmsi: number }).mmsi;
    per.set(mmsi, (per.get(mmsi) ?? 0) + 1);
  }
  return per;
}

async function waitFor(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

let failed = false;
try {
  await main();
} catch (e) {
  failed = true;
  process.stderr.write(`multiprocess: FAILED: ${e instanceof Error ? e.message : String(e)}\n`);
  for (const p of procs) if (p.stderr.length > 0) process.stderr.write(`--- ${p.base} stderr:\n${p.stderr.join("").slice(-2000)}\n`);
} finally {
  for (const p of [...procs]) p.child.kill("SIGKILL");
  await db?.end();
  await agent.close();
  await receiver.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
