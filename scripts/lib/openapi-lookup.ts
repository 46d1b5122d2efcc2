export * from '../../src/sandbox/openapi/lookup.js'; // moved to src/ so the sandbox shares it
