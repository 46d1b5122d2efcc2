import { extractUsage } from '../src/client/usage/extract.js';
import { serializeUsage } from '../src/client/usage/format.js';
const t = Date.now();
const { usage } = await extractUsage({ projectDir: process.argv[2]! });
console.log(serializeUsage(usage));
console.error('ms', Date.now() - t);
