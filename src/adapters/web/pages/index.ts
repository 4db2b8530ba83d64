import { companyPage } from "./company-page.ts";
import { flagPage } from "./flag-page.ts";
import { portPage } from "./port-page.ts";
import type { PublicPageKind } from "./public-page.ts";
import { searchPage } from "./search-page.ts";
import { vesselPage } from "./vessel-page.ts";
import { waterwayPage } from "./waterway-page.ts";
import { wreckPage } from "./wreck-page.ts";

/** Every kind of public page; a new kind is one file and one line here. */
export const PUBLIC_PAGES: readonly PublicPageKind[] = [vesselPage, portPage, flagPage, wreckPage, companyPage, waterwayPage, searchPage];

export { registerPublicPages } from "./public-page.ts";
