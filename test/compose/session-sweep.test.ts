import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startSessionSweep, sweepSessions } from "../../src/compose/session-sweep.ts";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../src/domain/people/session-rules.ts";
import type { Session } from "../../src/interfaces/people.ts";
import { makeUser } from "../adapters/web/helpers.ts";
import { ENGINES, startTestService, type TestService } from "../helpers/service.ts";

for (const engine of ENGINES) {
  describe(`ended sign-in sessions are swept (${engine})`, () => {
    let t: TestService;
    let userId: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      userId = (await makeUser(t, "sam@example.org")).userId;
    });
    after(() => t.close());

    /** Three sessions: past their 30 days, a week unused, and in use. */
    async function threeSessions(tag: string): Promise<{ absolute: string; idle: string; live: string }> {
      const now = t.clock.now();
      const row = (idHash: string, createdAt: number, lastSeenAt: number): Session => ({ idHash, userId, createdAt, lastSeenAt, expiresAt: createdAt + SESSION_ABSOLUTE_MS, ip: null, userAgent: null });
      const ids = { absolute: `${tag}-absolute`, idle: `${tag}-idle`, live: `${tag}-live` };
      await t.service.people.sessions.createSession(row(ids.absolute, now - SESSION_ABSOLUTE_MS - 1, now - 60_000));
      await t.service.people.sessions.createSession(row(ids.idle, now - SESSION_IDLE_MS - 2, now - SESSION_IDLE_MS - 1));
      await t.service.people.sessions.createSession(row(ids.live, now - 3_600_000, now - 60_000));
      return ids;
    }

    test("a sweep deletes the session rows past their absolute or idle end and keeps the live one", async () => {
      const ids = await threeSessions("a");
      assert.equal(await sweepSessions(t.service), 2);
      assert.equal(await t.service.people.sessions.getSession(ids.absolute), null);
      assert.equal(await t.service.people.sessions.getSession(ids.idle), null);
      assert.ok(await t.service.people.sessions.getSession(ids.live));
    });

    test("the upkeep timer sweeps once as it starts", async () => {
      const ids = await threeSessions("b");
      const sweep = startSessionSweep(t.service);
      try {
        await sweep.first;
      } finally {
        sweep.stop();
      }
      assert.equal(await t.service.people.sessions.getSession(ids.absolute), null);
      assert.equal(await t.service.people.sessions.getSession(ids.idle), null);
      assert.ok(await t.service.people.sessions.getSession(ids.live));
    });
  });
}
