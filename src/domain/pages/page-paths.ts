import { formatVesselId, type VesselId } from "../identifiers.ts";

/**
 * The canonical addresses of the public pages: the one place they are built, so every `page`
 * link an answer hands out and every redirect a page makes agree. Paths only; the caller puts
 * its public base in front. A new page kind adds its builder here and its page file in the
 * web adapter.
 */

/** Letters that carry no accent to strip, so NFKD leaves them whole: written out in ASCII instead. */
const LETTERS: Record<string, string> = { ø: "o", æ: "ae", œ: "oe", ß: "ss", đ: "d", ð: "d", þ: "th", ł: "l", ı: "i" };

/** Lowercase ASCII words joined by hyphens: "B.F. MACOMBER" → "b-f-macomber", "Øresund" → "oresund". */
export function slugify(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[øæœßđðþłı]/g, (c) => LETTERS[c]!)
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A name's slug for an address: its first 60 characters (the wreck import stores the same). */
export function nameSlug(name: string | null | undefined): string {
  return name ? slugify(name).slice(0, 60).replace(/-+$/, "") : "";
}

/**
 * `/vessel/{imo}-{slug}` for a ship with an IMO (bare `/vessel/{imo}` when no name may be
 * shown: the slug would give the name away), `/vessel/mmsi-{mmsi}` for craft without one.
 */
export function vesselPagePath(id: VesselId, name: string | null): string {
  if (id.kind === "mmsi") return `/vessel/${formatVesselId(id)}`;
  const slug = nameSlug(name);
  return slug ? `/vessel/${id.imo}-${slug}` : `/vessel/${id.imo}`;
}

export function portPagePath(unlocode: string): string {
  return `/port/${unlocode.toUpperCase()}`;
}

export function flagPagePath(iso2: string): string {
  return `/flag/${iso2.toUpperCase()}`;
}

/** `/wreck/{id}-{slug}`, the slug as the record stores it (`wreck` for one without a name). */
export function wreckPagePath(id: number | string, slug: string): string {
  return `/wreck/${id}-${slug || "wreck"}`;
}

/** `/company/{entityId}-{slug}`, the slug as the company id's own rule makes it (domain/companies/entity-id.ts). */
export function companyPagePath(entityId: string, slug: string): string {
  return slug ? `/company/${entityId}-${slug}` : `/company/${entityId}`;
}

/** `/waterway/{id}-{slug}`, the slug from the waterway's name. */
export function waterwayPagePath(id: string, slug: string): string {
  return `/waterway/${id}-${slug}`;
}

/** The search page, with a query when there is one. */
export function searchPagePath(q?: string): string {
  return q ? `/search?q=${encodeURIComponent(q)}` : "/search";
}
