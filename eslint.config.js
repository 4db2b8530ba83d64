// ESLint with typescript-eslint's recommended rules (syntax only: tsc does the type checking),
// plus the import boundaries of docs/architecture.md ("Import boundaries").
import { readdirSync } from "node:fs";
import { join } from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/*
 * Import boundaries.
 *
 * Every import in src/ is relative and names its file (`../../domain/errors.ts`), so where an
 * import lands follows from how many `../` it climbs and from how deep the importing file
 * sits. For each layer and each depth below the layer's folder we emit one config object
 * whose `files` glob matches exactly that depth, and whose regexes forbid the climbs that
 * leave the layer. That keeps the check inside ESLint's built-in rule (the typescript-eslint
 * variant, which can let `import type` through where we say so), with no resolver plugin.
 *
 *   src/domain      imports only src/domain, the pure npm packages in PURE_PACKAGES, node:crypto
 *                   (hashing and HMAC are functions of their input) and node:net's address
 *                   parsers (isIP...). Other node: modules only as `import type`.
 *   src/interfaces  imports only src/interfaces and src/domain.
 *   src/operations  never imports src/adapters, src/main.ts, the composition root or bin/.
 *   src/adapters/X  imports another adapter (src/adapters/Y, or a file directly in src/adapters)
 *                   never; only the composition root (src/main.ts, src/compose/, src/cli/,
 *                   bin/) joins adapters. Files inside one adapter folder (storage/**,
 *                   importers/sanctions/...) import each other freely. Adapters never import
 *                   the composition root either.
 */

const MAX_DEPTH = 5;
const PURE_PACKAGES = ["zod", "ipaddr.js"];
// Read from the tree so that a new adapter folder is checked the day it appears.
const ADAPTER_FOLDERS = readdirSync(join(import.meta.dirname, "src/adapters"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const BOUNDARY_DOC = "see docs/architecture.md, Import boundaries";

const up = (levels) => `(?:\\.\\./){${levels}}`;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const atDepth = (folder, depth) => `${folder}/${"*/".repeat(depth)}*.ts`;

/** The composition root, as seen from a file `levelsToSrc` directories below src/. */
function compositionRootPatterns(levelsToSrc, layer) {
  return [
    {
      regex: `^${up(levelsToSrc)}(?:main(?:\\.ts)?$|compose/|cli/)|^${up(levelsToSrc + 1)}bin/`,
      message: `${layer} must not import the composition root (src/main.ts, src/compose, src/cli, bin); ${BOUNDARY_DOC}.`,
    },
  ];
}

function domainPatterns(depth) {
  return [
    { regex: `^${up(depth + 1)}`, message: `src/domain is pure and imports only src/domain; ${BOUNDARY_DOC}.` },
    {
      regex: `^(?!\\.|node:|(?:${PURE_PACKAGES.map(escape).join("|")})$)`,
      message: `src/domain imports only the pure packages ${PURE_PACKAGES.join(", ")}; ${BOUNDARY_DOC}.`,
    },
    {
      regex: "^node:(?!crypto$|net$)",
      allowTypeImports: true,
      message: `src/domain does no I/O: of node's modules only node:crypto and node:net's isIP family (types are fine); ${BOUNDARY_DOC}.`,
    },
    {
      regex: "^node:net$",
      allowImportNames: ["isIP", "isIPv4", "isIPv6"],
      allowTypeImports: true,
      message: `src/domain does no I/O: from node:net only the address parsers isIP, isIPv4, isIPv6; ${BOUNDARY_DOC}.`,
    },
  ];
}

function interfacesPatterns(depth) {
  return [{ regex: `^${up(depth + 1)}(?!domain/)`, message: `src/interfaces imports only src/interfaces and src/domain; ${BOUNDARY_DOC}.` }];
}

function operationsPatterns(depth) {
  return [
    { regex: `^${up(depth + 1)}adapters/`, message: `src/operations must not import src/adapters (adapters call operations, not the reverse); ${BOUNDARY_DOC}.` },
    ...compositionRootPatterns(depth + 1, "src/operations"),
  ];
}

/**
 * `folder` is the adapter's folder name, or null for a file directly in src/adapters.
 * `src/adapters/shared/` holds libraries with no I/O and no state of their own (HTML
 * escaping): every adapter may use them, and they import no adapter.
 */
function adapterPatterns(folder, depth) {
  const toAdapters = folder === null ? "\\./" : up(depth + 1);
  const ownFolder = folder === null ? "" : `${escape(folder)}/|`;
  return [
    {
      regex: `^${toAdapters}(?!${ownFolder}shared/|\\.\\./)`,
      message: `an adapter imports another adapter only through the composition root (src/main.ts); ${BOUNDARY_DOC}.`,
    },
    ...compositionRootPatterns(folder === null ? 1 : depth + 2, "An adapter"),
  ];
}

/** The rule config with `allowed` specifiers let through by every pattern. */
function restrict(patterns, allowed = []) {
  const exempt = allowed.length === 0 ? "" : `(?!(?:${allowed.map(escape).join("|")})$)`;
  return ["error", { patterns: patterns.map((p) => ({ ...p, regex: `^${exempt}${p.regex.replace(/^\^/, "").replace(/\|\^/g, `|^${exempt}`)}` })) }];
}

const RULE = "@typescript-eslint/no-restricted-imports";

function layer(folder, patternsAt) {
  return Array.from({ length: MAX_DEPTH }, (_, depth) => ({
    files: [atDepth(folder, depth)],
    rules: { [RULE]: restrict(patternsAt(depth)) },
  }));
}

const boundaries = [
  ...layer("src/domain", domainPatterns),
  ...layer("src/interfaces", interfacesPatterns),
  ...layer("src/operations", operationsPatterns),
  { files: ["src/adapters/*.ts"], rules: { [RULE]: restrict(adapterPatterns(null, 0)) } },
  ...ADAPTER_FOLDERS.flatMap((folder) => layer(`src/adapters/${folder}`, (depth) => adapterPatterns(folder, depth))),
];

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "datasets/", ".tmp-*/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.ts", "bin/**/*.ts"],
    rules: {
      // Operator output goes through the logger or the CLI's own writers.
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  ...boundaries,
  {
    // The domain reads no clock and no environment: both are passed in.
    files: ["src/domain/**/*.ts"],
    rules: {
      "no-restricted-properties": ["error", { object: "Date", property: "now", message: "src/domain takes time from a Clock passed in." }],
      "no-restricted-globals": ["error", { name: "process", message: "src/domain reads no environment; config is passed in." }],
    },
  },
);
