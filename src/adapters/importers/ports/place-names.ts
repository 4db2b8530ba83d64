/**
 * Comparing place names across editions whose spelling, transliteration and
 * diacritics differ, and whose text was partly damaged by upstream re-encoding.
 */

/** The distinct names other than the primary one, in order. */
export function otherNames(primary: string, names: string[]): string[] {
  const out: string[] = [];
  for (const n of names) if (n && n !== primary && !out.includes(n)) out.push(n);
  return out;
}

export function stripDiacritics(name: string): string {
  return name.normalize("NFD").replace(/\p{M}/gu, "");
}

/** Lower-case letters and digits only; drops accents and the "?" / U+FFFD of broken names. */
export function normaliseName(name: string): string {
  return stripDiacritics(name)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** A name with "?" or U+FFFD where a letter was lost in re-encoding. */
export function brokenText(value: string): boolean {
  return value.includes("\uFFFD") || value.includes("?");
}

/** Same name after normalisation, or one contains the other (four letters at least). */
export function namesMatch(a: string, b: string): boolean {
  if (brokenText(b) && !brokenText(a)) return brokenNameMatches(a, b);
  if (brokenText(a) && !brokenText(b)) return brokenNameMatches(b, a);
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (!x || !y) return false;
  return x === y || (Math.min(x.length, y.length) >= 4 && (x.includes(y) || y.includes(x)));
}

// "Sar?seki" / "Timb\uFFFDes": each lost character stood for one accented letter
// (two when a UTF-8 sequence was split), so it matches one or two letters.
function brokenNameMatches(clean: string, broken: string): boolean {
  const parts = stripDiacritics(broken)
    .toLowerCase()
    .split(/[?\uFFFD]/)
    .map((p) => p.replace(/[^a-z0-9]/g, ""));
  const pattern = new RegExp(`^${parts.join("[a-z0-9]{0,2}")}$`);
  return pattern.test(normaliseName(clean));
}

// Dice coefficient over letter bigrams: catches respellings (Meklong / Mae Klong,
// Kiliya / Kiliia) that exact matching misses.
export function namesSimilar(a: string, b: string): boolean {
  const x = bigrams(normaliseName(a));
  const y = bigrams(normaliseName(b));
  if (x.length === 0 || y.length === 0) return false;
  const pool = [...y];
  let common = 0;
  for (const g of x) {
    const i = pool.indexOf(g);
    if (i >= 0) {
      common++;
      pool.splice(i, 1);
    }
  }
  return (2 * common) / (x.length + y.length) >= 0.5;
}

function bigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
  return out;
}
