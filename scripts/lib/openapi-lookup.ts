export * from '../../src/sandbox/contract/lookup.js'; // moved to src/ so the sandbox shares it
