export * from '../../src/sandbox/openapi/schema-validator.js'; // moved to src/ so the sandbox shares it
