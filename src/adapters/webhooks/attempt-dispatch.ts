import type { Dispatcher } from "undici";

/** What an attempt's answer was: the status, and at most the first bytes of the body as text (null when the body could not be read in time). */
export interface AttemptResponse {
  status: number;
  snippet: string | null;
}

/** Thrown into an attempt whose headers did not arrive within its deadline. */
export class DeadlineError extends Error {
  readonly code = "E_DEADLINE";
}

/** The reason a connection is dropped once the snippet is read: not an error of the attempt. */
class SnippetRead extends Error {}

/**
 * One POST on undici's handler interface, under one deadline from the call to the last byte
 * read: rejects with the transport's error when no status arrived (a `DeadlineError` at the
 * deadline), else resolves with the status and at most `snippetBytes` of the body, and drops
 * the connection once that much is read.
 *
 * Why not `undici.request()`: for every attempt it builds an async resource, a readable
 * stream for the body and an abort-signal listener, and the snippet was then read through
 * the stream's async iterator. A webhook worker sends every attempt through here; handling
 * the few callbacks directly measured 10 µs less CPU per delivery (136 against 146 µs, sender
 * and a local receiver in one process; bench/README.md, "Webhook deliveries").
 */
export function dispatchAttempt(
  dispatcher: Dispatcher,
  url: URL,
  body: string,
  headers: Record<string, string>,
  deadlineMs: number,
  snippetBytes: number,
): Promise<AttemptResponse> {
  return new Promise((resolve, reject) => {
    const handler = new AttemptHandler(resolve, reject, snippetBytes);
    handler.timer = setTimeout(() => handler.expire(new DeadlineError(`no answer within ${deadlineMs} ms`)), deadlineMs);
    try {
      dispatcher.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: "POST", body, headers }, handler);
    } catch (e) {
      handler.onResponseError(null, e as Error);
    }
  });
}

class AttemptHandler implements Dispatcher.DispatchHandler {
  timer: NodeJS.Timeout | undefined;
  #controller: Dispatcher.DispatchController | null = null;
  #status: number | null = null;
  #chunks: Buffer[] = [];
  #got = 0;
  /** Set once the promise is settled: what undici reports after that is dropped. */
  #ended: Error | null = null;

  readonly resolve: (r: AttemptResponse) => void;
  readonly reject: (e: unknown) => void;
  readonly snippetBytes: number;

  constructor(resolve: (r: AttemptResponse) => void, reject: (e: unknown) => void, snippetBytes: number) {
    this.resolve = resolve;
    this.reject = reject;
    this.snippetBytes = snippetBytes;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // The deadline passed while the connection was being made: the request is not sent.
    if (this.#ended) controller.abort(this.#ended);
    else this.#controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // 1xx answers are informational: the final status comes after them.
    if (statusCode >= 200) this.#status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#ended) return;
    const take = Math.min(chunk.length, this.snippetBytes - this.#got);
    if (take > 0) this.#chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
    this.#got += chunk.length;
    if (this.#got >= this.snippetBytes) {
      this.#settle(true);
      controller.abort(new SnippetRead("the snippet is read"));
    }
  }

  onResponseEnd(): void {
    if (this.#status === null) this.#fail(new Error("the answer ended without a final status"));
    else this.#settle(true);
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.#ended) return;
    // With a status the outcome is decided: a body that breaks off only loses the snippet.
    if (this.#status !== null) this.#settle(false);
    else this.#fail(error);
  }

  /** The deadline: with a status, the outcome stands without its snippet; without one, the attempt failed. */
  expire(error: DeadlineError): void {
    if (this.#ended) return;
    if (this.#status !== null) this.#settle(false);
    else this.#fail(error);
    this.#controller?.abort(error);
  }

  #settle(withSnippet: boolean): void {
    if (this.#ended) return;
    this.#ended = new SnippetRead("the attempt has ended");
    clearTimeout(this.timer);
    this.resolve({ status: this.#status!, snippet: withSnippet ? Buffer.concat(this.#chunks).toString("utf8") : null });
  }

  #fail(error: Error): void {
    if (this.#ended) return;
    this.#ended = error;
    clearTimeout(this.timer);
    this.reject(error);
  }
}
