/**
 * What a designation's record says of the ship it designates, as facts of the list: its
 * names (the listed one, other current ones, former ones), MMSIs, call sign, flag and type.
 * They are the list's statements, dated by the listing, never sightings of the ship.
 */
import type { Designation } from "./designation.ts";

/** How a list gives a name: as the name it lists the ship under, another current name (a.k.a.), or a former one (f.k.a.). */
export const LISTED_NAME_ROLES = ["name", "alias", "former_name"] as const;
export type ListedNameRole = (typeof LISTED_NAME_ROLES)[number];

/** Every name a record gives the ship, each once, with how it gives it; the listed name first. */
export function listedNames(d: Pick<Designation, "name" | "aliases" | "formerNames">): { name: string; as: ListedNameRole }[] {
  const out: { name: string; as: ListedNameRole }[] = [];
  const seen = new Set<string>();
  const add = (name: string, as: ListedNameRole) => {
    const key = name.trim().toLowerCase();
    if (key === "" || seen.has(key)) return;
    seen.add(key);
    out.push({ name: name.trim(), as });
  };
  add(d.name, "name");
  for (const a of d.aliases) add(a, "alias");
  for (const f of d.formerNames) add(f, "former_name");
  return out;
}
