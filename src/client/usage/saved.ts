// `ramp-api usage --check NEW --from FILE`: the usage file an earlier run wrote, taken instead of reading the
// project again, with the bundles of the ramp-api the project has installed (the report says so when they are
// not those the file was built against: checkUsage).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundleLoader, type FamilyBundle } from './bundles.js';
import { StaleUsageError, UsageError } from './errors.js';
import { readUsageFile, type UsageFile } from './usage-file.js';

/** The folder of the package ramp-api installed for the project in `projectDir`. */
function installedPackage(projectDir: string): string {
  try {
    return dirname(createRequire(join(projectDir, 'package.json')).resolve('ramp-api/package.json'));
  } catch {
    throw new UsageError(`No ramp-api is installed for the project ${projectDir}: run \`npm i ramp-api\` there.`);
  }
}

/** The usage file `file` and the bundles of each family it names, as the project's ramp-api ships them. */
export async function savedUsage(
  file: string,
  projectDir: string,
): Promise<{ usage: UsageFile; families: Map<string, FamilyBundle> }> {
  const usage = await readUsageFile(file);
  const root = installedPackage(projectDir);
  const load = bundleLoader();
  const families = new Map<string, FamilyBundle>();
  for (const family of Object.keys(usage.descriptions)) {
    const bundle = load(root, family);
    if (!bundle) throw new StaleUsageError(`${file} names the API family ${family}, which ${root} does not ship.`);
    families.set(family, bundle);
  }
  return { usage, families };
}
