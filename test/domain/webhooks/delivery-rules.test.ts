/**
 * The delivery state machine and the turn-off rule as pure functions (spec 3), table by
 * table: what the stores apply after every attempt.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type AttemptedDelivery, type NextDeliveryState, nextDeliveryState } from "../../../src/domain/webhooks/delivery-state.ts";
import { type EndpointHealth, type HealthAfter, healthAfter } from "../../../src/domain/webhooks/endpoint-health.ts";

const MIN = 60_000;
const HOUR = 3_600_000;
const T = Date.UTC(2026, 10, 20, 12);

describe("next state of a delivery after an attempt", () => {
  const cases: { name: string; delivery: AttemptedDelivery; success: boolean; expected: NextDeliveryState }[] = [
    { name: "a success delivers it, tries unchanged", delivery: { trigger: "auto", tries: 3, resumeStatus: null }, success: true, expected: { status: "delivered", tries: 3, next: null } },
    { name: "the first scheduled failure retries after a minute", delivery: { trigger: "auto", tries: 0, resumeStatus: null }, success: false, expected: { status: "retrying", tries: 1, next: T + MIN } },
    { name: "the second after 5 minutes", delivery: { trigger: "auto", tries: 1, resumeStatus: null }, success: false, expected: { status: "retrying", tries: 2, next: T + 5 * MIN } },
    { name: "the seventh after 24 hours", delivery: { trigger: "auto", tries: 6, resumeStatus: null }, success: false, expected: { status: "retrying", tries: 7, next: T + 24 * HOUR } },
    { name: "the eighth failure gives up", delivery: { trigger: "auto", tries: 7, resumeStatus: null }, success: false, expected: { status: "given_up", tries: 8, next: null } },
    { name: "a failed test stays failed, nothing scheduled", delivery: { trigger: "test", tries: 0, resumeStatus: null }, success: false, expected: { status: "failed", tries: 0, next: null } },
    { name: "a successful test is delivered", delivery: { trigger: "test", tries: 0, resumeStatus: null }, success: true, expected: { status: "delivered", tries: 0, next: null } },
    { name: "a failed one-off retry goes back to given up", delivery: { trigger: "manual", tries: 8, resumeStatus: "given_up" }, success: false, expected: { status: "given_up", tries: 8, next: null } },
    { name: "a failed one-off retry of a delivered one stays delivered", delivery: { trigger: "manual", tries: 0, resumeStatus: "delivered" }, success: false, expected: { status: "delivered", tries: 0, next: null } },
    { name: "a failed one-off retry without a state to go back to is given up", delivery: { trigger: "manual", tries: 2, resumeStatus: null }, success: false, expected: { status: "given_up", tries: 2, next: null } },
    { name: "a successful one-off retry delivers it", delivery: { trigger: "manual", tries: 8, resumeStatus: "given_up" }, success: true, expected: { status: "delivered", tries: 8, next: null } },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(nextDeliveryState(c.delivery, c.success, T), c.expected));
  }

  it("the whole schedule: 8 attempts at 0, 1 m, 6 m, 36 m, 2 h 36 m, 8 h 36 m, 20 h 36 m, 44 h 36 m, then given up", () => {
    let at = T;
    let d: AttemptedDelivery = { trigger: "auto", tries: 0, resumeStatus: null };
    const attempts = [0];
    for (;;) {
      const s = nextDeliveryState(d, false, at);
      if (s.next === null) {
        assert.equal(s.status, "given_up");
        break;
      }
      attempts.push(s.next - T);
      at = s.next;
      d = { ...d, tries: s.tries };
    }
    assert.deepEqual(attempts, [0, MIN, 6 * MIN, 36 * MIN, 2 * HOUR + 36 * MIN, 8 * HOUR + 36 * MIN, 20 * HOUR + 36 * MIN, 44 * HOUR + 36 * MIN]);
  });
});

describe("an endpoint's failure streak and when it is turned off", () => {
  const active = (failureStreak: number, streakStartedAt: number | null): EndpointHealth => ({ status: "active", failureStreak, streakStartedAt });
  const cases: { name: string; endpoint: EndpointHealth; outcomes: boolean[]; expected: HealthAfter }[] = [
    { name: "a first failure starts the streak now", endpoint: active(0, null), outcomes: [false], expected: { failureStreak: 1, streakStartedAt: T, turnOff: false } },
    { name: "failures add to the streak and keep its start", endpoint: active(3, T - HOUR), outcomes: [false, false], expected: { failureStreak: 5, streakStartedAt: T - HOUR, turnOff: false } },
    { name: "a success ends the streak", endpoint: active(9, T - HOUR), outcomes: [true], expected: { failureStreak: 0, streakStartedAt: null, turnOff: false } },
    { name: "failures after a success in the batch start a new streak now", endpoint: active(9, T - HOUR), outcomes: [false, true, false, false], expected: { failureStreak: 2, streakStartedAt: T, turnOff: false } },
    { name: "the 15th failure over 24 hours turns it off", endpoint: active(14, T - 24 * HOUR), outcomes: [false], expected: { failureStreak: 15, streakStartedAt: T - 24 * HOUR, turnOff: true } },
    { name: "15 failures within less than 24 hours do not", endpoint: active(14, T - 24 * HOUR + 1), outcomes: [false], expected: { failureStreak: 15, streakStartedAt: T - 24 * HOUR + 1, turnOff: false } },
    { name: "24 hours with 14 failures do not", endpoint: active(13, T - 48 * HOUR), outcomes: [false], expected: { failureStreak: 14, streakStartedAt: T - 48 * HOUR, turnOff: false } },
    { name: "a batch crossing 15 over 24 hours turns it off", endpoint: active(10, T - 30 * HOUR), outcomes: [false, false, false, false, false], expected: { failureStreak: 15, streakStartedAt: T - 30 * HOUR, turnOff: true } },
    { name: "a success in the batch never turns it off, however long the streak", endpoint: active(40, T - 72 * HOUR), outcomes: [false, true], expected: { failureStreak: 0, streakStartedAt: null, turnOff: false } },
    { name: "an endpoint already off is not turned off again; its streak still counts", endpoint: { status: "disabled", failureStreak: 20, streakStartedAt: T - 48 * HOUR }, outcomes: [false], expected: { failureStreak: 21, streakStartedAt: T - 48 * HOUR, turnOff: false } },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(healthAfter(c.endpoint, c.outcomes, T), c.expected));
  }
});
