import { CompaniesFileError, parseCompaniesFile } from "../adapters/importers/companies-file.ts";
import { InspectionsFileError, parseInspectionsCsv } from "../adapters/importers/inspections-file.ts";
import { checkOperatorSource, OperatorSourceError } from "../adapters/importers/operator-source.ts";
import { readSource } from "../adapters/importers/read-source.ts";
import type { Services } from "../operations/services.ts";
import { CliError } from "./cli-error.ts";

/** An import of the operator's own rows under a source of the sources file; returns the line to print. */
export type OperatorImport = (services: Services, file: string, source: string | undefined) => Promise<string>;

/** A refused file or source is one line, not a stack trace. */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof CompaniesFileError || e instanceof InspectionsFileError || e instanceof OperatorSourceError) throw new CliError(e.message);
    throw e;
  }
}

export const OPERATOR_IMPORTS: Record<string, OperatorImport> = {
  companies: (services, file, sourceId) =>
    refusing(async () => {
      const source = checkOperatorSource(services.sources, sourceId, "import companies");
      const records = parseCompaniesFile(await readSource(file), source);
      await services.companies.replaceSource(source, records);
      return `companies: ${records.length} companies, ${records.reduce((n, r) => n + r.fleet.length, 0)} fleet links from ${file} under source ${source} (its earlier rows replaced)`;
    }),
  inspections: (services, file, sourceId) =>
    refusing(async () => {
      const source = checkOperatorSource(services.sources, sourceId, "import inspections");
      const rows = parseInspectionsCsv(await readSource(file), new Date(services.clock.now()).toISOString().slice(0, 10));
      await services.inspections.replaceSource(source, rows);
      return `inspections: ${rows.length} inspections of ${new Set(rows.map((r) => r.imo)).size} ships from ${file} under source ${source} (its earlier rows replaced)`;
    }),
};
