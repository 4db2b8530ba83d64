/**
 * Minimal reader of zip archives (stored and deflated entries), because OFAC
 * also publishes its files zipped (SDN_XML.ZIP, SDN_ADVANCED.ZIP); xlsx workbooks
 * are zips too, from which xlsx-sheet.ts takes only the parts it reads.
 */
import { pipeline, Readable } from "node:stream";
import { createInflateRaw, inflateRawSync } from "node:zlib";

export type ZipEntry = { name: string; bytes: Buffer };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** Where one file of an archive lies, from its central directory. */
export type ZipDirectoryEntry = { name: string; method: number; compressedSize: number; dataStart: number };

/** Lists the files of a zip archive without extracting any; throws on a damaged or unsupported archive. */
export function zipDirectory(archive: Buffer): ZipDirectoryEntry[] {
  // The end-of-central-directory record sits in the last 22 bytes plus an optional comment (< 64 KiB).
  let eocd = -1;
  for (let i = archive.length - 22; i >= Math.max(0, archive.length - 22 - 0xffff); i--) {
    if (archive.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a complete zip archive (no end of central directory; truncated download?)");
  const count = archive.readUInt16LE(eocd + 10);
  let offset = archive.readUInt32LE(eocd + 16);
  const entries: ZipDirectoryEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > archive.length || archive.readUInt32LE(offset) !== CENTRAL_SIGNATURE) throw new Error("damaged zip central directory");
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.toString("utf8", offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    if (localOffset + 30 > archive.length || archive.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) throw new Error(`damaged zip entry ${name}`);
    const dataStart = localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > archive.length) throw new Error(`zip entry ${name} is truncated`);
    if (method !== 0 && method !== 8) throw new Error(`zip entry ${name} uses unsupported compression method ${method}`);
    entries.push({ name, method, compressedSize, dataStart });
  }
  return entries;
}

/** One file of an archive, extracted whole. */
export function extractZipEntry(archive: Buffer, entry: ZipDirectoryEntry): Buffer {
  const data = archive.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  return entry.method === 0 ? Buffer.from(data) : inflateRawSync(data);
}

/** One file of an archive as it is inflated, chunk by chunk: a large part is never held whole. */
export async function* zipEntryChunks(archive: Buffer, entry: ZipDirectoryEntry): AsyncIterable<Buffer> {
  const data = archive.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === 0) {
    for (let i = 0; i < data.length; i += 1 << 16) yield data.subarray(i, i + (1 << 16));
    return;
  }
  const inflated = pipeline(Readable.from([data]), createInflateRaw(), () => {});
  for await (const chunk of inflated) yield chunk as Buffer;
}

/** Lists and extracts the files of a zip archive; throws on a damaged or unsupported archive. */
export function unzip(archive: Buffer): ZipEntry[] {
  return zipDirectory(archive).map((entry) => ({ name: entry.name, bytes: extractZipEntry(archive, entry) }));
}
