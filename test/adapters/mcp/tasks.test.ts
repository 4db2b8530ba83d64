/**
 * MCP tasks (the `io.modelcontextprotocol/tasks` extension of the 2026-07-28 revision) on each
 * engine: a 5,000-member watchlist screened as a task through the official client packages
 * (the SDK client and `@modelcontextprotocol/ext-tasks`), its progress seen while it runs, its
 * result row for row the REST pages, its credits exactly REST's; a cancelled task stops
 * charging; another account cannot read or cancel it; earlier revisions, and clients that do
 * not declare the extension, get the synchronous answer; bad task requests get a JSON-RPC
 * error naming the parameter and the rule; `screen_vessels` above 50 vessels runs as a task too.
 * Also: a second API process on the same store answers and cancels a task the first one runs;
 * a task whose process stopped is failed for good; tasks expire 24 hours after creation.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/client";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createTaskSessionFromClient, resultFromTaskOutcome, type TaskView } from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue } from "@modelcontextprotocol/ext-tasks/core";
import { createService } from "../../../src/main.ts";
import { billingPeriod } from "../../../src/operations/billing-period.ts";
import { callTool, connect, type McpTestService, startMcpService } from "../../helpers/mcp.ts";
import { ENGINES } from "../../helpers/service.ts";
import { importFile, importUkCsv, OFAC_2024_05_03 } from "../../helpers/sanctions.ts";

const MODERN = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const CLIENT_INFO = { name: "mds-tasks-test", version: "1.0.0" };

/** The n-th checksum-valid IMO number from 1000000 up (the check digit is computed, so most are on no list). */
function imoNumber(n: number): number {
  const six = String(100_000 + n);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(six[i]) * (7 - i);
  return Number(`${six}${sum % 10}`);
}

/** A promise with its resolver outside. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Holds the next task that reaches page `page` until released: the test polls or cancels it at
 * a known point instead of racing the work. Every page also moves the service's clock a second,
 * as the REST loops here do, so the key's per-second limit is met the same way.
 */
class PageGate {
  #hold: { page: number; reached: ReturnType<typeof deferred<string>>; release: ReturnType<typeof deferred<void>> } | null = null;
  readonly #tick: () => void;
  constructor(tick: () => void) {
    this.#tick = tick;
  }
  holdAt(page: number) {
    const hold = { page, reached: deferred<string>(), release: deferred<void>() };
    this.#hold = hold;
    return { reached: hold.reached.promise, release: () => hold.release.resolve() };
  }
  beforePage = async (taskId: string, page: number) => {
    this.#tick();
    const hold = this.#hold;
    if (hold && hold.page === page) {
      this.#hold = null;
      hold.reached.resolve(taskId);
      await hold.release.promise;
    }
  };
}

type RpcAnswer = { jsonrpc: "2.0"; id: number | string; result?: Record<string, any>; error?: { code: number; message: string } };

for (const engine of ENGINES) {
  describe(`MCP tasks (${engine})`, () => {
    let t: McpTestService;
    let gate: PageGate;
    let a: { key: string; accountId: string; keyId: string };
    let b: { key: string; accountId: string; keyId: string };
    let watchlistId: string;
    let ids: string[];
    let rpcId = 0;

    before(async () => {
      gate = new PageGate(() => (t.clock.t += 1_000));
      t = await startMcpService({ engine, withData: false, mcpTasks: { beforePage: (id, page) => gate.beforePage(id, page) } });
      a = await t.key("scale");
      b = await t.key("scale");
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      await importUkCsv(t, { asOf: "2026-04-29" });
      const ofac = await t.service.services.sanctions.listActive("ofac", 0, 5000);
      const listed = [...new Set(ofac.flatMap((r) => r.record.imos))].slice(0, 200).map(String);
      ids = [...listed];
      for (let n = 0; ids.length < 5_000; n++) {
        const imo = String(imoNumber(n));
        if (!listed.includes(imo)) ids.push(imo);
      }
      const made = await rest("POST", "/api/v1/account/watchlists", a.key, { name: "Fleet book", ids });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(made.body.data.memberCount, 5_000);
      watchlistId = made.body.data.id;
    });
    after(() => t.close());

    /** REST through the listening socket, a second later on the service's clock (these tests are not about the rate limit). */
    async function rest(method: string, path: string, key: string, payload?: unknown) {
      t.clock.t += 1_000;
      const res = await fetch(`${t.address}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(payload !== undefined ? { "content-type": "application/json" } : {}) },
        body: payload !== undefined ? JSON.stringify(payload) : undefined,
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    }
    const creditsUsed = async (k: { accountId: string; keyId: string }) => (await t.service.services.ledger.usage(k.accountId, k.keyId, billingPeriod(t.clock.now()))).used;

    /** The 2026-07-28 envelope a client puts in every request's `_meta`, declaring the tasks extension unless told otherwise. */
    function envelope(capabilities: Record<string, unknown> = { extensions: { [TASKS]: {} } }) {
      return { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": CLIENT_INFO, "io.modelcontextprotocol/clientCapabilities": capabilities };
    }

    /** One JSON-RPC request over HTTP as a 2026-07-28 client sends it: the body exactly as given, the standard headers. */
    async function post(key: string, body: unknown, headers: Record<string, string> = {}, address = t.address): Promise<RpcAnswer> {
      const res = await fetch(`${address}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, ...headers },
        body: JSON.stringify(body),
      });
      assert.match(res.headers.get("content-type") ?? "", /application\/json/);
      return (await res.json()) as RpcAnswer;
    }
    const rpc = (key: string, method: string, params: Record<string, unknown>, name?: string, address = t.address) =>
      post(key, { jsonrpc: "2.0", id: ++rpcId, method, params: { ...params, _meta: envelope() } }, { "mcp-method": method, ...(name ? { "mcp-name": name } : {}) }, address);
    const taskGet = (key: string, taskId: string) => rpc(key, "tasks/get", { taskId }, taskId);

    /** The official client with the tasks package over it; the package sends tools/call and tasks/* itself, through this raw path. */
    async function taskSession(key: string): Promise<{ client: Client; session: ReturnType<typeof createTaskSessionFromClient> }> {
      const client = await connect(t, key, MODERN);
      const session = createTaskSessionFromClient(client, {
        endpointId: `mds-${engine}`,
        rawDispatch: async (request, options) => {
          const r = request as { method: string };
          const extra = Object.fromEntries(Object.entries(options?.context?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
          const name = (request as { params?: { name?: string } }).params?.name;
          // The package hands over method and params; the JSON-RPC framing is the host's.
          const answer = await post(key, { jsonrpc: "2.0", id: ++rpcId, ...(request as object) }, { "mcp-method": r.method, ...(r.method === "tools/call" && name ? { "mcp-name": name } : {}), ...extra });
          return answer.error ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result as JsonValue };
        },
        v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
      });
      return { client, session };
    }

    /** Polls `tasks/get` (the client-visible state) until no process works on the task any more. */
    async function untilStopped(key: string, taskId: string): Promise<RpcAnswer> {
      for (;;) {
        const got = await taskGet(key, taskId);
        if (got.result?._meta?.["mds/task"]?.running === false) return got;
        await nextTurn();
      }
    }

    it("the server declares the extension to 2026-07-28 clients", async () => {
      const client = await connect(t, a.key, MODERN);
      assert.deepEqual(client.getServerCapabilities()?.extensions?.[TASKS], {});
      await client.close();
    });

    it("a 5,000-member watchlist screened as a task: progress while it runs, the REST pages' rows as its result, REST's credits", async () => {
      const { client, session } = await taskSession(a.key);
      const held = gate.holdAt(3);
      const before = await creditsUsed(a);
      const execution = await session.callTool("screen_watchlist", { id: watchlistId });
      assert.equal(execution.kind, "task", "a list longer than a page answers with a task");
      const taskId = await held.reached;
      assert.equal(execution.handle?.taskId, taskId);

      // Held before its fourth page: three pages of 100 done and charged, and the poll says so.
      const midway = await taskGet(a.key, taskId);
      assert.equal(midway.result?.status, "working");
      assert.deepEqual(midway.result?._meta?.["mds/task"], { tool: "screen_watchlist", done: 300, total: 5_000, creditsCharged: 300, running: true });
      assert.match(midway.result?.statusMessage, /300 of 5000 screened, 300 credits charged/);
      assert.equal(midway.result?.ttlMs, 24 * 3_600_000);
      assert.equal((await creditsUsed(a)) - before, 300, "charged as the pages complete, not up front");

      const seen: TaskView[] = [];
      held.release();
      const { outcome } = await execution.settle({ onEvent: (e) => void (e.type === "task" && seen.push(e.task)) });
      const result = resultFromTaskOutcome(outcome) as { structuredContent: Record<string, any>; _meta: Record<string, any>; isError?: boolean };
      assert.notEqual(result.isError, true);
      const taskCredits = (await creditsUsed(a)) - before;
      assert.ok(seen.every((v) => v.taskId === taskId));
      assert.ok(seen.some((v) => v.status === "completed"), "the client saw the task complete");

      // The same screening over REST, page by page.
      const restBefore = await creditsUsed(a);
      const rows: unknown[] = [];
      let path: string | null = `/api/v1/account/watchlists/${watchlistId}/screen?limit=100`;
      while (path) {
        const page = await rest("GET", path, a.key);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        rows.push(...page.body.data);
        path = page.body.next ? new URL(page.body.next).pathname + new URL(page.body.next).search : null;
      }
      const restCredits = (await creditsUsed(a)) - restBefore;

      const structured = result.structuredContent;
      assert.equal(structured.data.length, 5_000);
      // The whole list's result is still what the tool's output schema describes.
      const { tools } = await client.listTools();
      const validate = new Ajv2020({ strict: false }).compile(tools.find((tool) => tool.name === "screen_watchlist")!.outputSchema!);
      assert.ok(validate(structured), JSON.stringify(validate.errors?.slice(0, 3)));
      assert.deepEqual(structured.data, rows, "row for row the REST pages");
      assert.equal(structured.count, 5_000);
      assert.equal(structured.sanctionedCount, rows.filter((r: any) => r.sanctioned).length);
      assert.ok(structured.sanctionedCount > 100, `${structured.sanctionedCount} members really are sanctioned`);
      assert.equal(structured.watchlist.id, watchlistId);
      assert.equal(structured.nextCursor, undefined);
      assert.equal(taskCredits, restCredits, "the task costs what REST costs");
      assert.equal(taskCredits, 5_000);
      assert.equal(result._meta["mds/request"].creditsCharged, taskCredits);
      // Every page is a screening with its own receipt, readable by the account.
      assert.equal(result._meta["mds/request"].screeningIds.length, 50);
      const receipt = await rest("GET", `/api/v1/screenings/${result._meta["mds/request"].screeningIds[49]}`, a.key);
      assert.equal(receipt.status, 200);

      const done = await taskGet(a.key, taskId);
      assert.equal(done.result?.status, "completed");
      assert.deepEqual(done.result?.result?.structuredContent?.data, rows, "tasks/get gives the result again until it expires");
      await session.close();
      await client.close();
    });

    it("a cancelled task stops charging: the page in hand is the last one charged", async () => {
      const { client, session } = await taskSession(a.key);
      const held = gate.holdAt(5);
      const before = await creditsUsed(a);
      const execution = await session.callTool("screen_watchlist", { id: watchlistId });
      const taskId = await held.reached;
      await execution.cancel();
      const cancelled = await taskGet(a.key, taskId);
      assert.equal(cancelled.result?.status, "cancelled");
      held.release();
      const stopped = await untilStopped(a.key, taskId);
      const { outcome } = await execution.settle();
      assert.equal(outcome.status, "cancelled");

      assert.equal(stopped.result?._meta?.["mds/task"]?.done, 500, "five pages of 100 were done when it was cancelled");
      assert.equal((await creditsUsed(a)) - before, 500, "and only they were charged");
      assert.equal(stopped.result?._meta?.["mds/task"]?.creditsCharged, 500);
      assert.equal(stopped.result?.result, undefined, "a cancelled task has no result");
      const again = await rpc(a.key, "tasks/cancel", { taskId }, taskId);
      assert.equal(again.result?.resultType, "complete", "cancelling twice is no error");
      await session.close();
      await client.close();
    });

    it("another account cannot read or cancel a task: the same answer as for no task at all", async () => {
      const held = gate.holdAt(1);
      const created = await rpc(a.key, "tools/call", { name: "screen_watchlist", arguments: { id: watchlistId } }, "screen_watchlist");
      assert.equal(created.result?.resultType, "task");
      const taskId = created.result?.taskId as string;
      assert.equal(await held.reached, taskId);
      try {
        const read = await taskGet(b.key, taskId);
        const cancel = await rpc(b.key, "tasks/cancel", { taskId }, taskId);
        const unknown = `task_${"A".repeat(24)}`;
        const none = await taskGet(b.key, unknown);
        for (const answer of [read, cancel]) {
          assert.equal(answer.result, undefined);
          assert.equal(answer.error?.code, -32602);
          assert.equal(answer.error?.message.replace(taskId, "<id>"), none.error?.message.replace(unknown, "<id>"));
        }
        assert.equal((await taskGet(a.key, taskId)).result?.status, "working", "the owner's task goes on");
      } finally {
        held.release();
      }
      assert.equal((await untilStopped(a.key, taskId)).result?.status, "completed");
    });

    it("a poll and a cancel that reach another process of the deployment see the task and stop its work", async () => {
      // A second API process on the same store, as the scaled deployment runs them.
      const two = await createService(t.service.config, { clock: t.clock, rateLimitPrefix: `mds:test:tasks-two-${engine}` });
      const second = await two.app.listen({ port: 0, host: "127.0.0.1" });
      try {
        const held = gate.holdAt(2);
        const before = await creditsUsed(a);
        const created = await rpc(a.key, "tools/call", { name: "screen_watchlist", arguments: { id: watchlistId } }, "screen_watchlist");
        const taskId = created.result?.taskId as string;
        assert.equal(await held.reached, taskId);
        const seen = await rpc(a.key, "tasks/get", { taskId }, taskId, second);
        assert.equal(seen.result?.status, "working");
        assert.equal(seen.result?._meta?.["mds/task"]?.done, 200);
        assert.equal((await rpc(b.key, "tasks/get", { taskId }, taskId, second)).error?.code, -32602, "not another account's there either");
        assert.equal((await rpc(a.key, "tasks/cancel", { taskId }, taskId, second)).result?.resultType, "complete");
        held.release();
        const stopped = await untilStopped(a.key, taskId);
        assert.equal(stopped.result?.status, "cancelled");
        assert.equal(stopped.result?._meta?.["mds/task"]?.done, 200, "the process doing the work stopped at its next page");
        assert.equal((await creditsUsed(a)) - before, 200);
      } finally {
        await two.close();
      }
    });

    it("a task whose process stopped working on it is reported failed, with what it screened and charged, and not resumed", async () => {
      const held = gate.holdAt(1);
      const before = await creditsUsed(a);
      const created = await rpc(a.key, "tools/call", { name: "screen_watchlist", arguments: { id: watchlistId } }, "screen_watchlist");
      const taskId = created.result?.taskId as string;
      assert.equal(await held.reached, taskId);
      // No page for more than five minutes: as if the process had died.
      t.clock.t += 6 * 60_000;
      const failed = await taskGet(a.key, taskId);
      held.release();
      assert.equal(failed.result?.status, "failed");
      assert.equal(failed.result?.error?.code, -32603);
      assert.match(failed.result?.error?.message, /no page finished in 5 minutes\. 100 screened and 100 credits charged before it/);
      const stopped = await untilStopped(a.key, taskId);
      assert.equal(stopped.result?.status, "failed", "failed stays failed");
      assert.equal(stopped.result?._meta?.["mds/task"]?.done, 100);
      assert.equal((await creditsUsed(a)) - before, 100, "nothing charged after the failure");
    });

    it("earlier revisions, and 2026 clients that do not declare tasks, get the synchronous page", async () => {
      for (const revision of ["2025-06-18", "2025-11-25", MODERN] as const) {
        const client = await connect(t, a.key, revision);
        const r = await callTool(client, "screen_watchlist", { id: watchlistId });
        assert.notEqual(r.isError, true, JSON.stringify(r.content));
        assert.equal(r.structuredContent?.data.length, 10, `${revision}: one page of the MCP default size`);
        assert.equal(typeof r.structuredContent?.nextCursor, "string");
        await client.close();
      }
      // A 2025-11-25 request with that revision's task augmentation (`params.task`, not offered: no `capabilities.tasks`) is answered synchronously.
      const legacy = await post(
        a.key,
        { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: "screen_watchlist", arguments: { id: watchlistId }, task: { ttl: 60_000 } } },
        { "mcp-protocol-version": "2025-11-25" },
      );
      assert.equal(legacy.result?.structuredContent?.data.length, 10, JSON.stringify(legacy).slice(0, 300));
      assert.equal(legacy.result?.taskId, undefined);
      // The envelope without the extension: a plain call, a plain answer.
      const plain = await post(
        a.key,
        { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: "screen_watchlist", arguments: { id: watchlistId, limit: 20 }, _meta: envelope({}) } },
        { "mcp-method": "tools/call", "mcp-name": "screen_watchlist" },
      );
      assert.equal(plain.result?.resultType, "complete");
      assert.equal(plain.result?.structuredContent?.data.length, 20);
    });

    it("work that fits one page is answered at once, whole, even when tasks are declared", async () => {
      const small = await rest("POST", "/api/v1/account/watchlists", a.key, { name: "Few", ids: ids.slice(0, 30) });
      const answer = await rpc(a.key, "tools/call", { name: "screen_watchlist", arguments: { id: small.body.data.id } }, "screen_watchlist");
      assert.equal(answer.result?.resultType, "complete");
      assert.equal(answer.result?.structuredContent?.data.length, 30);
      const screened = await rest("GET", `/api/v1/account/watchlists/${small.body.data.id}/screen?limit=100`, a.key);
      assert.deepEqual(answer.result?.structuredContent?.data, screened.body.data);
    });

    it("screen_vessels above 50 vessels runs as a task of 50 a page: REST's rows and credits", async () => {
      const some = ids.slice(0, 120);
      const before = await creditsUsed(a);
      const created = await rpc(a.key, "tools/call", { name: "screen_vessels", arguments: { ids: some.join(",") } }, "screen_vessels");
      assert.equal(created.result?.resultType, "task", JSON.stringify(created));
      const done = await untilStopped(a.key, created.result?.taskId);
      assert.equal(done.result?.status, "completed");
      const taskCredits = (await creditsUsed(a)) - before;

      const restBefore = await creditsUsed(a);
      const rows: unknown[] = [];
      for (let i = 0; i < some.length; i += 50) rows.push(...(await rest("GET", `/api/v1/screen?ids=${some.slice(i, i + 50).join(",")}`, a.key)).body.data);
      assert.deepEqual(done.result?.result?.structuredContent?.data, rows);
      assert.equal(taskCredits, (await creditsUsed(a)) - restBefore);
      assert.equal(taskCredits, 120);

      // 50 or fewer stay one ordinary call; more than 1,000 is refused naming the rule.
      const fifty = await rpc(a.key, "tools/call", { name: "screen_vessels", arguments: { ids: some.slice(0, 50).join(",") } }, "screen_vessels");
      assert.equal(fifty.result?.resultType, "complete");
      assert.equal(fifty.result?.structuredContent?.data.length, 50);
      const many = Array.from({ length: 1_001 }, (_, n) => String(imoNumber(n + 20_000))).join(",");
      const tooMany = await rpc(a.key, "tools/call", { name: "screen_vessels", arguments: { ids: many } }, "screen_vessels");
      assert.equal(tooMany.result?.isError, true);
      assert.match(tooMany.result?.content[0].text, /^Error invalid_parameter \(HTTP 400\): Parameter `ids` names 1001 vessels; at most 1000 per call as a task \(50 without\)\./);
      assert.equal(tooMany.result?._meta?.["mds/error"]?.param, "ids");
    });

    it("bad task requests get a JSON-RPC error naming the parameter and the rule", async () => {
      const valid = `task_${"B".repeat(24)}`;
      const cases: [string, unknown, RegExp][] = [
        ["tasks/get", undefined, /takes an object `params` with `taskId`/],
        ["tasks/get", [1, 2], /takes an object `params` with `taskId`/],
        ["tasks/get", {}, /`taskId` must be a string.*got none/],
        ["tasks/get", { taskId: 42 }, /`taskId` must be a string.*got number/],
        ["tasks/get", { taskId: null }, /`taskId` must be a string.*got object/],
        ["tasks/get", { taskId: "" }, /is not a task id of this server/],
        ["tasks/get", { taskId: "x".repeat(10_000) }, /is not a task id of this server/],
        ["tasks/get", { taskId: "task_../../etc" }, /is not a task id of this server/],
        ["tasks/get", { taskId: valid, ttl: 5 }, /takes only `taskId`, `_meta`; unknown: `ttl`/],
        ["tasks/cancel", { taskId: { $ne: 1 } }, /`taskId` must be a string/],
        ["tasks/get", { taskId: valid }, /no task `task_B+` for this account/],
        ["tasks/update", { taskId: valid, inputResponses: {} }, /no task/],
      ];
      for (const [method, params, message] of cases) {
        const body = { jsonrpc: "2.0", id: ++rpcId, method, ...(params !== undefined ? { params } : {}) };
        const answer = await post(a.key, body, { "mcp-method": method });
        assert.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params)?.slice(0, 60)}: ${JSON.stringify(answer)}`);
        assert.match(answer.error!.message, message);
      }
      // A malformed declaration of the extension is refused, not read as "no tasks".
      const malformed = await post(
        a.key,
        { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: "screen_watchlist", arguments: { id: watchlistId }, _meta: envelope({ extensions: { [TASKS]: { ttl: 5 } } }) } },
        { "mcp-method": "tools/call", "mcp-name": "screen_watchlist" },
      );
      assert.equal(malformed.error?.code, -32602);
      assert.match(malformed.error!.message, /extensions\["io.modelcontextprotocol\/tasks"\]` must be an empty object/);
      // A finished task cannot be cancelled, and none takes input.
      const created = await rpc(a.key, "tools/call", { name: "screen_vessels", arguments: { ids: ids.slice(0, 60).join(",") } }, "screen_vessels");
      const taskId = created.result?.taskId as string;
      await untilStopped(a.key, taskId);
      assert.match((await rpc(a.key, "tasks/cancel", { taskId }, taskId)).error!.message, /is already completed; only a working task can be cancelled/);
      assert.match((await rpc(a.key, "tasks/update", { taskId, inputResponses: {} }, taskId)).error!.message, /does not await input/);
    });

    // Last: it moves the service's clock a day on.
    it("a task and its result are kept 24 hours from creation, then answer as unknown and are deleted", async () => {
      const created = await rpc(a.key, "tools/call", { name: "screen_vessels", arguments: { ids: ids.slice(0, 60).join(",") } }, "screen_vessels");
      const taskId = created.result?.taskId as string;
      assert.equal(created.result?.ttlMs, 24 * 3_600_000);
      await untilStopped(a.key, taskId);
      t.clock.t = Date.parse(created.result?.createdAt) + 24 * 3_600_000 - 1_000;
      assert.equal((await taskGet(a.key, taskId)).result?.status, "completed", "still there a second before");
      t.clock.t += 1_000;
      const gone = await taskGet(a.key, taskId);
      assert.equal(gone.error?.code, -32602);
      assert.match(gone.error!.message, /no task `task_[\w-]+` for this account \(tasks are kept 24 hours/);
      // The next task's creation deletes the expired ones, result pages included.
      const db = t.service.store.db;
      assert.ok((await db.selectFrom("mcp_task_pages").select("page").where("task_id", "=", taskId).execute()).length > 0);
      const next = await rpc(a.key, "tools/call", { name: "screen_vessels", arguments: { ids: ids.slice(100, 160).join(",") } }, "screen_vessels");
      assert.equal(next.result?.resultType, "task");
      assert.equal((await db.selectFrom("mcp_tasks").select("id").where("id", "=", taskId).execute()).length, 0);
      assert.equal((await db.selectFrom("mcp_task_pages").select("page").where("task_id", "=", taskId).execute()).length, 0);
      await untilStopped(a.key, next.result?.taskId);
    });
  });
}
