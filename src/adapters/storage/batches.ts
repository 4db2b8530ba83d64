/** Members of one IN list. */
export const IN_CHUNK = 500;

/** `items` in consecutive pieces of at most `size`. */
export function chunks<T>(items: readonly T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs `run` on consecutive pieces of `rows`, in order: for Kysely inserts of whole row
 * objects, whose bound parameters must stay under SQLite's limit (32,766).
 */
export async function inBatches<T>(rows: readonly T[], size: number, run: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (const batch of chunks(rows, size)) await run(batch);
}
