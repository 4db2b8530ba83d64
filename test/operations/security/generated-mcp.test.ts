/**
 * The security suite over MCP, generated from the same registry and examples as the REST one:
 * every operation that is an MCP tool is called as a tool with no key, a made-up key, a
 * revoked key, a broken argument, an argument that does not exist and a 100 kB argument.
 * A tool added to the registry is covered the day it lands (examples.ts must name it).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadDemoSanctionsExtracts } from "../../../src/cli/demo.ts";
import { PROJECT_ROOT } from "../../../src/main.ts";
import { OPERATIONS } from "../../../src/operations/registry.ts";
import { startTestService, type TestService } from "../../helpers/service.ts";
import { EXAMPLES, HUGE } from "./examples.ts";

const TOOLS = OPERATIONS.filter((op) => op.tool !== undefined);

interface Answer {
  status: number;
  wwwAuthenticate: string | undefined;
  /** The JSON-RPC message, from a JSON body or the one `data:` line of an event stream. */
  message: { result?: { isError?: boolean; content?: { text?: string }[] }; error?: { code: number; message: string } } | null;
}

async function toolCall(t: TestService, key: string | null, name: string, args: Record<string, unknown>): Promise<Answer> {
  t.clock.t += 1_000;
  const res = await t.service.app.inject({
    method: "POST",
    url: "/mcp",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const data = res.body.startsWith("{") ? res.body : /^data: (.*)$/m.exec(res.body)?.[1];
  return { status: res.statusCode, wwwAuthenticate: res.headers["www-authenticate"] as string | undefined, message: data ? JSON.parse(data) : null };
}

/** The text of a tool's error result, asserting it is one. */
function errorText(a: Answer, what: string): string {
  assert.equal(a.status, 200, `${what}: HTTP ${a.status}`);
  assert.equal(a.message?.result?.isError, true, `${what}: ${JSON.stringify(a.message).slice(0, 300)}`);
  const text = a.message!.result!.content?.map((c) => c.text ?? "").join(" ") ?? "";
  assert.doesNotMatch(text, /\n\s+at /, `${what}: no stack trace`);
  return text;
}

describe("security suite generated from the registry, over MCP", () => {
  it("the registry has tools, and each has an example", () => {
    assert.ok(TOOLS.length >= 8);
    assert.deepEqual(TOOLS.filter((op) => !(op.id in EXAMPLES)).map((op) => op.id), []);
  });

  let t: TestService;
  let owners: Record<string, { key: string; accountId: string }>;
  let revoked: string;
  before(async () => {
    t = await startTestService();
    // Screening with no sanctions list loaded is a 503 (nothing could be checked): load the demo's dated extracts.
    await loadDemoSanctionsExtracts(t.service, PROJECT_ROOT);
    owners = { scale: await t.key("scale", "owner scale"), team: await t.key("team", "owner team") };
    const r = await t.key("scale", "revoked");
    await t.service.services.accounts.revokeKey(r.keyId);
    revoked = r.key;
  });
  after(() => t?.close());

  for (const op of TOOLS) {
    const example = EXAMPLES[op.id]!;
    const owner = () => owners[example.plan ?? "scale"]!;
    const key = () => owner().key;
    // A tool reading the account's own object (a screening receipt) makes it once, through the owner's key.
    let made: Promise<Record<string, string>> | null = null;
    const own = () => (made ??= example.owned ? example.owned({ t, ...owner() }) : Promise.resolve({}));
    describe(`${op.tool} (${op.id})`, () => {
      let args: Record<string, string> = {};
      before(async () => {
        args = { ...example.path, ...(await own()), ...example.query };
      });
      it("the example is valid: the owner's key gets a result", async () => {
        const a = await toolCall(t, key(), op.tool!, args);
        assert.equal(a.status, 200);
        assert.notEqual(a.message?.result?.isError, true, JSON.stringify(a.message).slice(0, 300));
      });

      for (const [what, credential, code] of [
        ["no key", null, "missing_api_key"],
        ["a made-up key", "mds_sk_thisKeyWasNeverIssued00000000000", "invalid_api_key"],
        ["an access token never issued", "mds_at_neverIssued", "invalid_api_key"],
        ["a revoked key", "revoked", "api_key_revoked"],
      ] as const) {
        it(`with ${what}: HTTP 401 with the OAuth challenge, nothing run`, async () => {
          const a = await toolCall(t, credential === "revoked" ? revoked : credential, op.tool!, args);
          assert.equal(a.status, 401);
          assert.match(a.wwwAuthenticate ?? "", /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
          assert.match(JSON.stringify(a.message), new RegExp(code));
        });
      }

      it(`a bad ${example.bad.param}: an error result naming it`, async () => {
        const a = await toolCall(t, key(), op.tool!, { ...args, ...example.bad.path, ...(example.bad.query ?? {}) });
        const text = errorText(a, op.id);
        assert.match(text, /invalid_parameter/);
        assert.match(text, new RegExp(`\`${example.bad.param}\``));
      });

      it("an argument that does not exist: an error result naming it", async () => {
        const text = errorText(await toolCall(t, key(), op.tool!, { ...args, colour: "red" }), op.id);
        assert.match(text, /invalid_parameter/);
        assert.match(text, /`colour`/);
      });

      it("a 100 kB argument: an error result or a refusal, never a server failure", async () => {
        const first = Object.keys(args)[0] ?? "q";
        for (const big of [{ ...args, [first]: HUGE }, { ...args, q: HUGE }]) {
          const a = await toolCall(t, key(), op.tool!, big);
          assert.ok(a.status < 500, `HTTP ${a.status}`);
          if (a.status === 200) assert.match(errorText(a, op.id), /invalid_parameter|not_found/);
          else assert.ok([400, 413].includes(a.status), `HTTP ${a.status}`);
        }
      });
    });
  }
});
