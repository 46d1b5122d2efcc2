// Import rules for src/, checked by `npm run lint:deps` (part of npm test's lint step). Type-only imports count:
// a cycle through types is still a cycle a reader has to untangle.
const lower = (layer, above) => ({
  name: `${layer}-imports-no-layer-above`,
  comment: `src/sandbox/${layer}/ is below ${above.join(', ')}: it imports nothing from them.`,
  severity: 'error',
  from: { path: `^src/sandbox/${layer}/` },
  to: { path: `^src/sandbox/(${above.join('|')})(/|\\.ts$)` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycle in src/, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    // The sandbox's layers, top to bottom: the wiring (server.ts, cli.ts, bin.ts, index.ts), http/, pipeline/,
    // resources/, events/, then core/, contract/ and store/ at the bottom. Tests may import from any layer.
    lower('pipeline', ['http', 'server', 'cli', 'bin', 'index']),
    lower('resources', ['http', 'pipeline', 'server', 'cli', 'bin', 'index']),
    lower('events', ['http', 'pipeline', 'resources', 'server', 'cli', 'bin', 'index']),
    lower('core', ['http', 'pipeline', 'resources', 'events', 'pages', 'server', 'cli', 'bin', 'index']),
    lower('contract', ['http', 'pipeline', 'resources', 'events', 'pages', 'server', 'cli', 'bin', 'index']),
    lower('store', ['http', 'pipeline', 'resources', 'events', 'pages', 'contract', 'server', 'cli', 'bin', 'index']),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/|\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
