// Import rules for src/, scripts/ and contract-tests/, checked by `npm run lint:deps` (which npm test runs:
// scripts/checks/static-checks.test.ts) and tested by scripts/checks/layers.test.ts. Type-only imports count: a
// cycle through types is still a cycle a reader has to untangle.
const lower = (layer, above) => ({
  name: `${layer}-imports-no-layer-above`,
  comment: `src/sandbox/${layer}/ is below ${above.join(', ')}: it imports nothing from them.`,
  severity: 'error',
  from: { path: `^src/sandbox/${layer}/` },
  to: { path: `^src/sandbox/(${above.join('|')})(/|\\.ts$)` },
});

// The tooling's folders, top to bottom (docs/guides/contributing.md draws the same): each imports only the folders it
// lists. The entry folders at the top import nothing from one another; scripts/openapi/ at the bottom, which reads
// the descriptions, imports no other folder of scripts/. Nothing in scripts/ imports contract-tests/.
const scriptLayers = {
  serve: ['build', 'site', 'journeys', 'openapi'],
  checks: ['test-setup', 'build', 'site', 'journeys', 'openapi'],
  bench: ['build', 'openapi'],
  interop: ['openapi'],
  'test-setup': ['build', 'openapi'],
  build: ['site', 'journeys', 'openapi'],
  site: ['journeys', 'compat', 'openapi'],
  journeys: ['openapi'],
  compat: ['openapi'],
  openapi: [],
};
const scriptRule = ([folder, allowed]) => ({
  name: `scripts-${folder}-imports-only-${allowed.length ? allowed.join('-') : 'itself'}`,
  comment: `scripts/${folder}/ may import ${allowed.length ? `scripts/{${allowed.join(',')}}/` : 'no other folder of scripts/'}, and never contract-tests/.`,
  severity: 'error',
  from: { path: `^scripts/${folder}/` },
  to: { path: '^(scripts|contract-tests)/', pathNot: `^scripts/(${[folder, ...allowed].join('|')})/` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: { path: '^(src|scripts|contract-tests)/' },
      to: { circular: true },
    },
    // The sandbox's layers, top to bottom: the wiring (server.ts, cli.ts, bin.ts, index.ts) and the journeys'
    // command (journeys/), http/, pipeline/,
    // resources/, events/, then core/, contract/ and store/ at the bottom. Tests may import from any layer.
    lower('pipeline', ['http', 'journeys', 'server', 'cli', 'bin', 'index']),
    lower('resources', ['http', 'journeys', 'pipeline', 'server', 'cli', 'bin', 'index']),
    lower('events', ['http', 'journeys', 'pipeline', 'resources', 'server', 'cli', 'bin', 'index']),
    lower('core', ['http', 'journeys', 'pipeline', 'resources', 'events', 'pages', 'server', 'cli', 'bin', 'index']),
    lower('contract', ['http', 'journeys', 'pipeline', 'resources', 'events', 'pages', 'server', 'cli', 'bin', 'index']),
    lower('store', ['http', 'journeys', 'pipeline', 'resources', 'events', 'pages', 'contract', 'server', 'cli', 'bin', 'index']),
    ...Object.entries(scriptLayers).map(scriptRule),
    {
      name: 'contract-tests-imports-only-openapi-and-build',
      comment: 'contract-tests/ shares the description readers of scripts/openapi/ (and the build); no other tooling.',
      severity: 'error',
      from: { path: '^contract-tests/' },
      to: { path: '^scripts/', pathNot: '^scripts/(openapi|build)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/|\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
