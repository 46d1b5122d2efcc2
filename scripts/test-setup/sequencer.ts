// The order of `npm test`'s files: vitest's own (the files that failed last time first, then the longest, or the
// largest when it has no record, as on a fresh clone), with the static checks (scripts/checks/static-checks.test.ts)
// moved to the front. They are the run's longest file and need little of the worker that waits on them; last, they
// would leave the other worker idle for their whole length.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = 'scripts/checks/static-checks.test.ts';

export default class StaticChecksFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = sorted.filter((file) => file.moduleId.endsWith(`/${FIRST}`));
    return [...first, ...sorted.filter((file) => !first.includes(file))];
  }
}
