/**
 * The NYC importer's version: part of the fingerprint of an import (docs/deploy.md, "Restarts"). Raise it whenever
 * a change to the mapping (./mapping.ts), the importer or the milestones it derives (./milestones.ts) would store something different from the same file, so
 * that the next start reads the file again instead of skipping it as unchanged.
 */
export const NYC_IMPORT_VERSION = 2;
