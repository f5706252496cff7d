/**
 * The import rules of the repository (docs/design.md, Shape of the system), checked by `npm run lint`
 * (scripts/lint.sh runs `depcruise`). Layers are named by folder, so a new feature folder inherits the rule of its
 * level: anything under `server/services/` (webhooks, agents, ask, …) is a service; the server's `jobs`, `import`
 * and `workers` folders sit at the services level (imported by services and entry points, importing
 * repositories).
 */

/** Folders at the services level: they may import repositories, never the HTTP layer. */
const SERVICE_LEVEL = '^server/(services|jobs|import|workers)/';
/** Folders at the data level: the only Knex importers. */
const DATA_LEVEL = '^server/(repositories|db)/';
/** The entry points and composition roots: they may import every layer; no layer imports them. */
const ENTRY_POINTS = '^server/(app|main|worker|cli|bootstrap)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle with a runtime edge anywhere: such a cycle makes the load order matter.',
      from: {},
      to: { circular: true, via: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-types',
      severity: 'error',
      comment:
        'No cycle of type-only imports either, except the TypeScript SDK\'s generated operation table and the ' +
        'hand-written types it names (sdk-ts/src/generated/operations.ts ↔ sdk-ts/src/lib/types.ts): both sides ' +
        'are erased at compile time, and the generator writes one side.',
      from: { pathNot: '^sdk-ts/src/(generated|lib)/' },
      to: { circular: true },
    },
    {
      name: 'no-upward-from-services',
      severity: 'error',
      comment: 'Services (and jobs, the importer, workers) never see HTTP: http/ → services/ → repositories/.',
      from: { path: SERVICE_LEVEL },
      to: { path: ['^server/http/', ENTRY_POINTS] },
    },
    {
      name: 'no-upward-from-data',
      severity: 'error',
      comment: 'Repositories and migrations import nothing above them (no services, jobs, HTTP or entry points).',
      from: { path: DATA_LEVEL },
      to: { path: ['^server/http/', SERVICE_LEVEL, ENTRY_POINTS] },
    },
    {
      name: 'knex-only-in-data-level',
      severity: 'error',
      comment: 'Only server/repositories/ and server/db/ import Knex: SQL and the database differences live there.',
      from: { path: '^server/', pathNot: DATA_LEVEL },
      to: { path: '^node_modules/knex/' },
    },
    {
      name: 'server-only-from-tests-and-tools',
      severity: 'error',
      comment: 'Outside server/, only tests, benchmarks, the eval harness and scripts import server code.',
      from: { pathNot: '^(server|test|bench|eval|scripts|sdk-ts/test)/' },
      to: { path: '^server/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (a moved file leaves no dangling import behind).',
      from: {},
      // @meridian/sdk resolves to the workspace's build output (sdk-ts/dist), absent until `npm run build`.
      to: { couldNotResolve: true, pathNot: '^@meridian/sdk$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(sdk-ts/dist|sdk-python)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
