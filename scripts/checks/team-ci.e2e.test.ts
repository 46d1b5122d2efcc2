// "Your team's CI" (docs/guides/team-ci.md), as a team follows it: a new project with the guide's package.json
// (its lockfile made once, as the team commits it), the first-call guide's tsconfig.json and the sandbox guide's
// vitest files as the team's own tests, all installed from the packed packages through a registry on 127.0.0.1.
// Then every command of the GitHub Actions job, in order, with the job's variables and RAMP_API_NEXT set to the
// packed ramp-api tarball, so the next version's check runs too; each must exit 0, and the files the CI's own
// steps upload or read as a test report must be there. The GitLab job runs next in the same project: its commands
// that the GitHub job ran word for word (the install, the tests, the usage file, the journeys) are not run a
// second time (a second install and run of the same commands would double this test's time), only those that
// differ, in order; team-ci.test.ts holds the two files to the same commands. Each command run is printed with
// its file, its step and its time.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackages, packAndServe } from '../../src/testing/packed-packages.js';
import { markedBlock } from '../site/guides.js';
import { guideJobs, type Job, runJob } from './team-ci.js';
import { writeVitestRecipe } from './vitest-recipe.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-team-ci-'));
const project = join(work, 'pay-app');
const stop = new AbortController();
let packed: PackedPackages;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  packed = await packAndServe(work);
  // What a CI gives a job: CI=true, and none of this test run's own vitest variables.
  const inherited = Object.entries(packed.npmEnv).filter(([key]) => !/^(VITEST|TEST$|NODE_ENV$)/.test(key));
  env = { ...Object.fromEntries(inherited), CI: 'true', NO_COLOR: '1', RAMP_API_NEXT: packed.tarballs['ramp-api'] };
}, 180_000);

afterAll(async () => {
  stop.abort();
  await packed?.registry.close();
  rmSync(work, { recursive: true, force: true });
});

/** The paths the job keeps that its commands did not make, as files. */
const missing = (job: Job) =>
  job.kept.filter((path) => !existsSync(join(project, path)) || !statSync(join(project, path)).isFile());

/** Runs the job's commands (all but `skip`), printing each one's time; resolves with the commands it ran. */
const run = (job: Job, skip?: Set<string>) =>
  runJob(job, project, {
    // GitLab's own variable for the project's folder, which a job's variables may use.
    env: { ...env, CI_PROJECT_DIR: project },
    skip,
    signal: stop.signal,
    onCommand: (command, ms) => console.log(`${job.file}, ${command.step}: ${(ms / 1000).toFixed(1)} s`),
  });

describe("the guide's CI jobs, in a new project from the packed packages", () => {
  const jobs = guideJobs();
  let ranOnGitHub: Set<string>;

  it('the GitHub Actions job: every command exits 0, and makes the files it uploads and reports', async () => {
    writeVitestRecipe(project);
    writeFileSync(join(project, 'package.json'), markedBlock('team-ci-package', 'json').code);
    writeFileSync(join(project, 'tsconfig.json'), markedBlock('consumer-tsconfig', 'json').code);
    // The team's committed lockfile, which `npm ci` needs: made without installing anything.
    const lockfile = { step: 'the lockfile', command: 'npm install --package-lock-only' };
    await runJob({ file: 'setup', env: {}, commands: [lockfile], kept: [] }, project, { env, signal: stop.signal });
    const ran = await run(jobs.github);
    expect(ran.map((c) => c.command)).toEqual(jobs.github.commands.map((c) => c.command));
    expect(ran.some((c) => c.command.includes('"$RAMP_API_NEXT"'))).toBe(true);
    expect(jobs.github.kept).toEqual(expect.arrayContaining(['ramp-api-usage.json', 'reports/journeys.xml']));
    expect(missing(jobs.github)).toEqual([]);
    ranOnGitHub = new Set(ran.map((c) => c.command));
  }, 600_000);

  it('the GitLab CI job: its commands the GitHub job did not run exit 0, and it keeps files the commands made', async () => {
    expect(ranOnGitHub, 'the GitHub job ran first').toBeDefined();
    const ran = await run(jobs.gitlab, ranOnGitHub);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.some((c) => c.command.includes('"$RAMP_API_NEXT"'))).toBe(true);
    expect(jobs.gitlab.kept).toEqual(expect.arrayContaining(['ramp-api-usage.json', 'reports/journeys.xml']));
    expect(missing(jobs.gitlab)).toEqual([]);
  }, 600_000);
});
