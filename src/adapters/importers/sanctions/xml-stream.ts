/**
 * Reads a large XML publication as a stream (saxes), so memory stays flat however big the
 * file: only the elements a reader asks for are built, one at a time, in the same shape
 * `parseXml` gives (attributes as "@_name", text as "#text", a repeated child as an array),
 * handed over and dropped. OFAC's SDN_ADVANCED.XML is over 100 MB; built whole as a tree it
 * takes gigabytes.
 */
import { SaxesParser } from "saxes";
import { type SanctionsListKey, SanctionsParseError } from "../../../domain/sanctions/designation.ts";
import { type PartOfFile, textChunks } from "./chunks.ts";
import { headOf, type SourceFile, type XmlNode } from "./common.ts";

/** Called with each selected element, by its path of local names from the root ("Sanctions/DistinctParties/DistinctParty"). */
export type ElementHandlers = Record<string, (node: XmlNode | string) => void>;

/**
 * Called with the attributes (by local name) of each element at a path as it opens, outside
 * any selected element; nothing of it is built. What a first pass over a large file needs
 * to learn which records matter (ids, types) without building every record.
 */
export type OpenTagHandlers = Record<string, (attrs: Record<string, string>) => void>;

/** By element path: whether an element a handler selects is wanted, told by its attributes; one that is not is never built. */
export type ElementFilters = Record<string, (attrs: Record<string, string>) => boolean>;

export interface StreamOptions {
  onOpen?: OpenTagHandlers;
  keepIf?: ElementFilters;
}

type Frame = { name: string; path: string; collecting: boolean; attrs: Record<string, string>; children: XmlNode; text: string; hasChildren: boolean };

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * A copy of a string that does not point into the chunk it was cut from. The parser's
 * names, values and texts are slices of the chunk being parsed; a slice kept in a
 * reader's maps would keep its whole chunk alive, and memory would grow with the file.
 * Concatenating then slicing makes V8 flatten the string into a fresh one.
 */
const detached = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));

/** The name of the root element, read from the first bytes (declaration, comments and doctype skipped). */
export function xmlRootName(file: SourceFile): string | null {
  const head = headOf(file, 65_536).toString("utf8").replace(/^\uFEFF/, "");
  const stripped = head.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, "");
  const m = /<([A-Za-z_][\w.:-]*)/.exec(stripped);
  return m ? localName(m[1]!) : null;
}

/** What a finished element becomes: text alone when it has neither attributes nor children, as parseXml does. */
function finish(frame: Frame): XmlNode | string {
  const text = detached(frame.text.trim());
  const attrNames = Object.keys(frame.attrs);
  if (!frame.hasChildren && attrNames.length === 0) return text;
  const node: XmlNode = {};
  for (const a of attrNames) node[`@_${a}`] = frame.attrs[a];
  Object.assign(node, frame.children);
  if (text !== "") node["#text"] = text;
  return node;
}

function addChild(parent: Frame, name: string, value: XmlNode | string): void {
  parent.hasChildren = true;
  const existing = parent.children[name];
  if (existing === undefined) parent.children[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent.children[name] = [existing, value];
}

/**
 * Streams the file through the handlers. Throws SanctionsParseError naming the line and
 * column when the XML is not well formed, including a file cut short (an unclosed element),
 * so a broken download never reads as a shorter list. Returns the root element's name.
 */
export async function streamXmlElements(
  list: SanctionsListKey,
  file: SourceFile | PartOfFile,
  handlers: ElementHandlers,
  chunkSize = 1 << 14,
  { onOpen = {}, keepIf = {} }: StreamOptions = {},
): Promise<string> {
  const parser = new SaxesParser({ position: true });
  const stack: Frame[] = [];
  let root = "";
  let failure: Error | null = null;
  parser.on("error", (e) => {
    failure ??= e;
  });
  // Outside a selected element, only elements on the way to a selected path get a frame and a
  // path; every other one, and all below it, shares one frame (millions of elements, no garbage).
  const onTheWay = new Set<string>();
  for (const p of [...Object.keys(handlers), ...Object.keys(onOpen)]) {
    const parts = p.split("/");
    for (let i = 1; i <= parts.length; i++) onTheWay.add(parts.slice(0, i).join("/"));
  }
  const skipped: Frame = { name: "", path: "", collecting: false, attrs: {}, children: {}, text: "", hasChildren: false };
  parser.on("opentag", (tag) => {
    const parent = stack[stack.length - 1];
    if (parent === skipped) {
      stack.push(skipped);
      return;
    }
    const name = localName(tag.name);
    if (!parent) root = name;
    const path = parent ? (parent.collecting ? "" : `${parent.path}/${name}`) : name;
    if (!parent?.collecting && !onTheWay.has(path)) {
      stack.push(skipped);
      return;
    }
    const selected = !parent?.collecting && Object.hasOwn(handlers, path);
    const collecting = (parent?.collecting ?? false) || selected;
    const opened = !collecting && Object.hasOwn(onOpen, path) ? onOpen[path] : undefined;
    const wanted = selected && Object.hasOwn(keepIf, path) ? keepIf[path] : undefined;
    const attrs: Record<string, string> = {};
    if (collecting || opened) for (const [k, v] of Object.entries(tag.attributes)) attrs[detached(localName(k))] = detached(typeof v === "string" ? v : v.value);
    opened?.(attrs);
    if (wanted && !wanted(attrs)) {
      stack.push(skipped);
      return;
    }
    stack.push({ name: collecting ? detached(name) : name, path, collecting, attrs, children: {}, text: "", hasChildren: false });
  });
  const onText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top?.collecting) top.text += t;
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    const frame = stack.pop()!;
    if (!frame.collecting) return;
    const value = finish(frame);
    const handler = frame.path === "" ? undefined : handlers[frame.path];
    if (handler) handler(value);
    else addChild(stack[stack.length - 1]!, frame.name, value);
  });

  const fail = (e: Error): never => {
    throw new SanctionsParseError(list, `${file.name} is not well-formed XML (${e.message}); the file may be truncated or not XML`, { cause: e });
  };
  for await (const text of textChunks(file, chunkSize)) {
    parser.write(text);
    if (failure) fail(failure);
  }
  parser.close();
  if (failure) fail(failure);
  if (root === "") throw new SanctionsParseError(list, `${file.name} has no XML root element`);
  return root;
}
