// Function classifier positions (UNECE UN/LOCODE manual, 2018 layout): the
// character at position i means the function when it is not "-". A "0" in the
// first position means "function not known, to be specified".
const FUNCTION_NAMES: Record<string, string> = {
  "0": "function not known",
  "1": "port",
  "2": "rail terminal",
  "3": "road terminal",
  "4": "airport",
  "5": "postal exchange office",
  "6": "multimodal facility",
  "7": "fixed transport installation",
  "8": "inland water port",
  A: "special economic zone",
  B: "border crossing",
};

export function functionNamesOf(functions: string): string[] {
  const names: string[] = [];
  for (const ch of functions) {
    if (ch === "-") continue;
    const name = FUNCTION_NAMES[ch];
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** A well-formed classifier: eight positions of a digit, a capital or "-". */
export const FUNCTION_PATTERN = /^[0-9A-Z-]{8}$/;
