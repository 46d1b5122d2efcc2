export * from '../../src/openapi/lookup.js'; // moved to src/ so the sandbox shares it
