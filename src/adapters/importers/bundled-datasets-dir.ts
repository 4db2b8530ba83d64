import { resolve } from "node:path";

/** The public datasets that ship with the service (with their provenance and licences), at the project root. */
export const BUNDLED_DATASETS_DIR = resolve(import.meta.dirname, "../../../datasets");
