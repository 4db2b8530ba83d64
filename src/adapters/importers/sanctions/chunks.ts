/**
 * A publication file read piece by piece, as bytes or as text, so a parser that streams
 * never holds the file: the reading half of the streaming XML and CSV readers, and of the
 * checksum.
 */
import { open } from "node:fs/promises";
import type { SourceFile } from "./common.ts";

/**
 * The file's bytes in chunks of at most `chunkSize`, read from disk into one buffer that is
 * reused: each chunk is valid only until the next is asked for, so a reader copies what it
 * keeps (decoding to text or hashing does). A fresh buffer per chunk (a read stream's) is
 * memory outside the JS heap that only a garbage collection returns; a loop that makes
 * little other garbage (a checksum) piled up some 64 MB of them before one came.
 */
export async function* fileChunks(file: SourceFile, chunkSize = 1 << 16): AsyncIterable<Buffer> {
  if (file.path === undefined) {
    for (let i = 0; i < file.bytes.length; i += chunkSize) yield file.bytes.subarray(i, i + chunkSize);
    return;
  }
  const handle = await open(file.path, "r");
  try {
    const buffer = Buffer.allocUnsafe(chunkSize);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkSize, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** A document inside a file (a part of an xlsx workbook), read as it is unpacked; the name is for messages. */
export type PartOfFile = { name: string; chunks: () => AsyncIterable<Buffer> };

/** The encoding a byte-order mark announces; UTF-8 without one. */
function encodingOf(first: Buffer): string {
  if (first[0] === 0xff && first[1] === 0xfe) return "utf-16le";
  if (first[0] === 0xfe && first[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/**
 * The file as text, chunk by chunk: UTF-8, or UTF-16 when it opens with that byte-order mark
 * (spreadsheet exports); the mark itself dropped, and a character cut between two chunks
 * decoded whole. Chunks are never empty.
 */
export async function* textChunks(file: SourceFile | PartOfFile, chunkSize = 1 << 14): AsyncIterable<string> {
  let decoder: InstanceType<typeof TextDecoder> | null = null;
  for await (const chunk of "chunks" in file ? file.chunks() : fileChunks(file, chunkSize)) {
    decoder ??= new TextDecoder(encodingOf(chunk));
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") yield text;
  }
  const rest = decoder?.decode() ?? "";
  if (rest !== "") yield rest;
}
