// The sandbox serves its control API's description (/sandbox/openapi.json) with the address it is on, so a tool
// that reads it (a generator, a runner, the docs) calls this sandbox, whatever port it was given.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../testing/sandbox-fixture.js';

describe('the description the sandbox serves', () => {
  const sandbox = useSandbox();

  it('names the address the sandbox is on as its server', async () => {
    const answer = await fetch(`${sandbox.url}/sandbox/openapi.json`);
    expect(answer.status).toBe(200);
    const doc = (await answer.json()) as { servers?: { url: string }[]; paths?: object };
    expect(doc.servers?.map((s) => s.url)).toEqual([sandbox.url]);
    expect(Object.keys(doc.paths ?? {})).toContain('/sandbox/tenants');
  });
});
