export * from '../../src/sandbox/contract/schema-validator.js'; // moved to src/ so the sandbox shares it
