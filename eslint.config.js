import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * A service's domain/ is its pure rules: it computes, it does not reach the outside world. It
 * may import node:crypto and pure libraries (big.js, node-forge, qrcode's matrix, zod, the
 * contracts and the error catalogue); storage, messaging, the authority's SOAP, PDF drawing and
 * node I/O belong to db/, adapters/, flows/ and handlers/, which may import domain/ but not the
 * other way round (docs/layers.md).
 */
const DOMAIN_WHY = "services/*/src/domain/ holds pure rules (docs/layers.md):";
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** What domain/ may not import, by why: `names` exactly, `packages` with their subpaths too. */
const outsideDomain = [
  {
    names: ["fs", "fs/promises", "net", "http", "https", "child_process", "dgram", "tls"].flatMap(
      (name) => [name, `node:${name}`],
    ),
    why: "node I/O (files, sockets, processes) belongs in adapters/.",
  },
  {
    packages: ["@pasarela/db", "kysely", "postgres"],
    why: "the database belongs in db/; define the shape the domain needs here and let db/ satisfy it.",
  },
  {
    packages: ["@pasarela/bus", "nats"],
    scopes: ["@nats-io"],
    why: "messaging belongs in flows/, handlers/ or adapters/; take what is sent as a function.",
  },
  { packages: ["soap", "@pasarela/authority"], why: "calls to the authority belong in adapters/." },
  { packages: ["pdfkit", "fontkit"], why: "drawing PDFs belongs in adapters/." },
];
const domainRestrictions = {
  paths: outsideDomain.flatMap(({ names = [], packages = [], why }) =>
    [...names, ...packages].map((name) => ({ name, message: `${DOMAIN_WHY} ${why}` })),
  ),
  patterns: [
    {
      regex: "^\\.{1,2}/(.*/)?(db|adapters|flows|handlers)(/|$)",
      message: `${DOMAIN_WHY} it does not import the layers around it (db/, adapters/, flows/, handlers/); they import it.`,
    },
    ...outsideDomain
      .filter(({ packages, scopes }) => packages || scopes)
      .map(({ packages = [], scopes = [], why }) => ({
        regex: `^(${[...packages, ...scopes].map(escape).join("|")})/`,
        message: `${DOMAIN_WHY} ${why}`,
      })),
  ],
};

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", ".data/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["vitest.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["services/*/src/domain/**"],
    rules: { "no-restricted-imports": ["error", domainRestrictions] },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
