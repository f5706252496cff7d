/**
 * The NYC importer's version: part of the fingerprint of an import (docs/deploy.md, "Restarts"). Raise it whenever
 * a change to the mapping (./mapping.ts) or the importer would store something different from the same file, so
 * that the next start reads the file again instead of skipping it as unchanged.
 */
export const NYC_IMPORT_VERSION = 1;
