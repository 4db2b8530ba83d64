/**
 * Minimal reader of zip archives (stored and deflated entries), because OFAC
 * also publishes its files zipped (SDN_XML.ZIP, SDN_ADVANCED.ZIP). xlsx
 * workbooks are zips too but are left whole for the workbook reader.
 */
import { inflateRawSync } from "node:zlib";

export type ZipEntry = { name: string; bytes: Buffer };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** Lists and extracts the files of a zip archive; throws on a damaged or unsupported archive. */
export function unzip(archive: Buffer): ZipEntry[] {
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
  const entries: ZipEntry[] = [];
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
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    if (data.length !== compressedSize) throw new Error(`zip entry ${name} is truncated`);
    if (method === 0) entries.push({ name, bytes: Buffer.from(data) });
    else if (method === 8) entries.push({ name, bytes: inflateRawSync(data) });
    else throw new Error(`zip entry ${name} uses unsupported compression method ${method}`);
  }
  return entries;
}
