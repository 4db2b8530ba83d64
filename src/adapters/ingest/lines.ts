/**
 * Splits a byte stream (decoded as latin1, so every byte is one character and a chunk
 * boundary never splits a character) into lines. Lines longer than `maxLine` are dropped
 * whole and counted: a sender that never sends a newline cannot make us buffer without
 * bound. Blank lines (CR/LF pairs, keep-alive newlines) are skipped, not counted.
 */
export class LineSplitter {
  readonly #maxLine: number;
  #partial = "";
  #discarding = false;

  constructor(maxLine: number) {
    this.#maxLine = maxLine;
  }

  /** Complete lines in the chunk, and how many over-long lines were dropped. */
  push(chunk: string): { lines: string[]; oversized: number } {
    const lines: string[] = [];
    let oversized = 0;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf("\n", from);
      if (nl < 0) break;
      if (this.#discarding) {
        this.#discarding = false;
        oversized++;
      } else {
        const line = this.#partial === "" ? chunk.slice(from, nl) : this.#partial + chunk.slice(from, nl);
        this.#partial = "";
        if (line.length > this.#maxLine) oversized++;
        else if (line.length > 1 || (line.length === 1 && line !== "\r")) lines.push(line);
      }
      from = nl + 1;
    }
    if (from < chunk.length) {
      if (this.#discarding) {
        // still inside an over-long line: drop the bytes
      } else if (this.#partial.length + (chunk.length - from) > this.#maxLine) {
        this.#partial = "";
        this.#discarding = true;
      } else {
        this.#partial += chunk.slice(from);
      }
    }
    return { lines, oversized };
  }

  /** The unterminated last line at end of stream, if any (a sender may omit the final newline). */
  end(): { line: string | null; oversized: number } {
    const discarded = this.#discarding;
    const line = this.#partial.trim() === "" ? null : this.#partial;
    this.#partial = "";
    this.#discarding = false;
    return { line, oversized: discarded ? 1 : 0 };
  }
}
