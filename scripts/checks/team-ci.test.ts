// The job files of "Your team's CI" (docs/guides/team-ci.md), checked by the tools made for them: the GitHub
// Actions workflow by action-validator (GitHub's workflow schema), the GitLab job by gitlab-ci-local (GitLab's own
// CI schema, and the job as GitLab would expand it), each also shown refusing a broken copy. And the runner that
// scripts/checks/team-ci.e2e.test.ts runs them with: it stops at the first command that fails, naming the file,
// the step and the command.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { markedBlock } from '../site/guides.js';
import { githubJob, guideJobs, JOB_BLOCKS, type Job, runJob } from './team-ci.js';

const execute = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'ramp-team-ci-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
/** Exit code and output of a command, whether it failed or not. */
const outcome = (file: string, args: string[], cwd: string) =>
  execute(file, args, { cwd, env: { ...process.env, NO_COLOR: '1' } }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );

const github = markedBlock(JOB_BLOCKS.github, 'yaml').code;
const gitlab = markedBlock(JOB_BLOCKS.gitlab, 'yaml').code;

/** action-validator's verdict on a workflow file. */
function actionValidator(text: string) {
  const file = join(work, 'ramp-api.yml');
  writeFileSync(file, text);
  return outcome(bin('action-validator'), [file], work);
}

/** gitlab-ci-local's list of the jobs of a `.gitlab-ci.yml`, in a git repository of its own (it reads git). */
async function gitlabCiLocal(text: string) {
  const dir = mkdtempSync(join(work, 'gitlab-'));
  writeFileSync(join(dir, '.gitlab-ci.yml'), text);
  await execute('git', ['init', '--quiet', dir]);
  return outcome(bin('gitlab-ci-local'), ['--list'], dir);
}

describe("the guide's GitHub Actions workflow", () => {
  it('is valid to action-validator, which refuses a copy with a broken job', async () => {
    expect(await actionValidator(github)).toMatchObject({ code: 0 });
    const broken = await actionValidator(github.replace('runs-on:', 'runs_on:'));
    expect(broken.code).toBe(1);
    expect(broken.output).toContain("Additional property 'runs_on' is not allowed");
  });

  it('installs, tests, writes the usage file, runs the journeys, checks the next version when one is set', () => {
    const job = guideJobs().github;
    expect(job.commands.map((c) => c.command.split(' ').slice(0, 3).join(' '))).toEqual([
      'npm ci',
      'npx vitest run',
      'npx ramp-api usage',
      'npx ramp-api-sandbox journeys',
      'npx ramp-api usage',
    ]);
    expect(github).toMatch(/if: env\.RAMP_API_NEXT != ''\n\s+run: npx ramp-api usage --check "\$RAMP_API_NEXT"/);
    expect(job.kept).toEqual(['ramp-api-usage.json', 'reports/journeys.json', 'reports/journeys.xml']);
  });
});

describe("the guide's GitLab CI job", () => {
  it('is valid to gitlab-ci-local, which refuses a copy with a broken job', async () => {
    const valid = await gitlabCiLocal(gitlab);
    expect(valid.code, valid.output).toBe(0);
    expect(valid.output).toMatch(/json schema validated/);
    expect(valid.output).toMatch(/^ramp-api\s/m);
    const broken = await gitlabCiLocal(gitlab.replace('when: always', 'when: sometimes'));
    expect(broken.code).not.toBe(0);
    expect(broken.output).toMatch(/artifacts/);
  }, 30_000);

  it('runs what the GitHub job runs, and keeps the same files', () => {
    const { github: fromGitHub, gitlab: fromGitLab } = guideJobs();
    const commands = (job: Job) =>
      job.commands.map((c) => c.command.replace(/^if \[ -n "\$RAMP_API_NEXT" \]; then (.*); fi$/, '$1'));
    expect(commands(fromGitLab)).toEqual(commands(fromGitHub));
    expect(fromGitLab.kept).toEqual(fromGitHub.kept);
  });
});

describe('the runner of the job files', () => {
  /** The guide's GitHub job with each command replaced: `true`, but `failing` for the usage step. */
  const withCommands = (failing: string): Job => {
    const job = guideJobs().github;
    return {
      ...job,
      commands: job.commands.map((c) => ({ ...c, command: c.step.includes('Usage file') ? failing : 'true' })),
    };
  };

  it('throws at the first command that fails, naming the file, the step and the command, and runs no further', async () => {
    const job = withCommands('echo "usage: no such command" >&2; exit 1');
    job.commands.push({ step: 'after', command: 'touch after' });
    await expect(runJob(job, work, { env: process.env })).rejects.toThrow(
      /^GitHub Actions, step 5 \(Usage file\): `echo "usage: no such command" >&2; exit 1` exited with 1:\nusage: no such command/,
    );
    expect(() => readFileSync(join(work, 'after'))).toThrow();
  });

  it("a misspelt command fails too: the shell's exit status is the command's", async () => {
    await expect(runJob(withCommands('npm rnu test'), work, { env: process.env })).rejects.toThrow(
      /step 5 \(Usage file\): `npm rnu test` exited with 1:\n[\s\S]*Unknown command: "rnu"/,
    );
    await expect(runJob(withCommands('npx-ramp-api usage'), work, { env: process.env })).rejects.toThrow(
      /step 5 \(Usage file\): `npx-ramp-api usage` exited with 127/,
    );
  });

  it("gives each command the job's variables, expanded as GitLab expands them", async () => {
    const job = githubJob(
      `jobs:\n  one:\n    env:\n      FOLDER: $HOME_OF/out\n    steps:\n      - run: echo "$FOLDER" > seen\n`,
    );
    await runJob(job, work, { env: { ...process.env, HOME_OF: '/team' } });
    expect(readFileSync(join(work, 'seen'), 'utf8')).toBe('/team/out\n');
    await expect(runJob(job, work, { env: process.env })).rejects.toThrow(/use \$HOME_OF, which is not set/);
  });
});
