import { existsSync } from "node:fs";
import { DATASETS, importDataset } from "../adapters/importers/datasets.ts";
import { runSanctionsImportCommand } from "../adapters/importers/sanctions-import.ts";
import { OPERATOR_IMPORTS } from "./import-operator.ts";
import { parseCommandArgs, str } from "./arguments.ts";
import { CliError } from "./cli-error.ts";
import { withServices } from "./context.ts";
import { downloadBars } from "./sanctions-progress.ts";
import type { CliIo } from "./io.ts";

const KNOWN = `${Object.keys(DATASETS).join(", ")}, all, sanctions or (with --source) ${Object.keys(OPERATOR_IMPORTS).join(", ")}`;

/** A local path that is not there is named before anything is opened; URLs are read by the importer. */
function requireFile(what: string, pathOrUrl: string): void {
  if (/^https?:\/\//i.test(pathOrUrl)) return;
  if (!existsSync(pathOrUrl)) throw new CliError(`${what}: ${pathOrUrl}: no such file or directory`);
}

/** `mds import <dataset|all> [file|url]` and `mds import sanctions ...`; returns the exit code. */
export async function importCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, rest } = parseCommandArgs("import", argv, { all: { type: "boolean", default: false }, "as-of": { type: "string" }, "max-delisted-share": { type: "string" }, source: { type: "string" } });
  const [dataset, file, extra] = rest;
  if (!dataset) throw new CliError(`import needs a dataset: ${KNOWN}`);
  if (dataset === "sanctions") {
    for (const path of rest.slice(2)) requireFile(`import sanctions ${rest[1]}`, path);
    const cmd = { args: rest.slice(1), all: values.all === true, asOf: str(values, "as-of"), maxDelistedShare: str(values, "max-delisted-share") };
    return withServices(io, async (s) => {
      const download = (list: string) => ({ timeoutMs: s.config.sanctionsFetchTimeoutMs, progressFor: downloadBars(io.stderrIsTTY, list) });
      return (await runSanctionsImportCommand(s.services, { ...cmd, configured: s.config.sanctionsSources, download }, io.err)) ? 0 : 1;
    });
  }
  const operatorImport = OPERATOR_IMPORTS[dataset];
  if (operatorImport) {
    if (!file) throw new CliError(`import ${dataset} needs a file: mds import ${dataset} <file> --source <id>`);
    if (extra !== undefined) throw new CliError(`import ${dataset} takes one file, got ${rest.length - 1}`);
    requireFile(`import ${dataset}`, file);
    return withServices(io, async (s) => {
      io.err(await operatorImport(s.services, file, str(values, "source")));
      return 0;
    });
  }
  if (values.source !== undefined) throw new CliError(`--source belongs to import ${Object.keys(OPERATOR_IMPORTS).join(" and import ")}`);
  if (values.all || values["as-of"] !== undefined || values["max-delisted-share"] !== undefined) throw new CliError("--all, --as-of and --max-delisted-share belong to import sanctions");
  if (dataset !== "all" && !(dataset in DATASETS)) throw new CliError(`import ${dataset}: unknown dataset; known: ${KNOWN}`);
  if (dataset === "all" && file) throw new CliError("import all takes no file: name one dataset to import a file");
  if (extra !== undefined) throw new CliError(`import ${dataset} takes one file or URL, got ${rest.length - 1}`);
  if (file) requireFile(`import ${dataset}`, file);
  const ids = dataset === "all" ? Object.keys(DATASETS) : [dataset];
  await withServices(io, async (s) => {
    for (const id of ids) {
      const r = await importDataset(s, id, file, { progress: io.stderrIsTTY });
      io.err(`${id}: ${r.rows} rows from ${r.origin}`);
    }
  });
  return 0;
}
