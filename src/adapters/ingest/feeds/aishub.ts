import { aishubPollUrl, parseAishub } from "../../../domain/feeds/aishub-snapshot.ts";
import { FeedConnector } from "./connector.ts";

/** Records no older than this are asked for (minutes); AISHub regenerates its snapshot about every 5. */
const MAX_AGE_MINUTES = 10;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * AISHub's web service, for members: a JSON snapshot polled at most once a minute (more
 * often and it answers nothing). "Connected" means the last poll succeeded; a member whose
 * polls succeed but bring no records for the threshold gets the `silent` alarm.
 */
export class AishubConnector extends FeedConnector {
  #timer: NodeJS.Timeout | null = null;
  #abort: AbortController | null = null;

  protected open(generation: number): void {
    const username = this.deps.key;
    if (!username) {
      this.lost(generation, "no AISHub username stored; add the feed again with --key");
      return;
    }
    const url = aishubPollUrl(this.deps.feed.url, username, MAX_AGE_MINUTES);
    const every = Math.max(this.deps.tuning.pollIntervalMs ?? 60_000, 10);
    let first = true;
    const poll = async () => {
      this.#timer = null;
      if (!this.current(generation)) return;
      this.#abort = new AbortController();
      const timeout = setTimeout(() => this.#abort?.abort(), 30_000);
      try {
        const res = await fetch(url, { signal: this.#abort.signal, headers: { "accept-encoding": "gzip" } });
        if (res.status === 429) return this.lost(generation, "HTTP 429", { rateLimited: true });
        if (!res.ok) return this.lost(generation, `HTTP ${res.status}`);
        const text = await res.text();
        if (text.length > MAX_BODY_BYTES) return this.lost(generation, "answer too large");
        if (first) {
          first = false;
          this.opened(generation);
        }
        // An empty body is AISHub's answer to polling too often: nothing, and no error.
        if (text.trim() !== "") {
          const r = parseAishub(text, this.deps.clock.now());
          if ("error" in r) this.feedError(`AISHub: ${r.error}`);
          else if ("rejected" in r) this.rejected(generation, r.rejected);
          else {
            for (const [reason, n] of Object.entries(r.dropped)) this.rejected(generation, reason, n);
            this.reports(generation, r.reports, r.records - Object.values(r.dropped).reduce((a, b) => a + b, 0));
          }
        }
      } catch (e) {
        return this.lost(generation, e instanceof Error ? e.message : String(e));
      } finally {
        clearTimeout(timeout);
      }
      if (this.current(generation)) {
        this.#timer = setTimeout(() => void poll(), every);
        this.#timer.unref();
      }
    };
    void poll();
  }

  protected async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#abort?.abort();
    this.#abort = null;
  }
}
