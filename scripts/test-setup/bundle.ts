// Vitest global setup: bundles every description first, so tests always read bundles of the current sources.
import { bundleAll } from '../lib/bundle.js';

export default function setup(): void {
  bundleAll();
}
