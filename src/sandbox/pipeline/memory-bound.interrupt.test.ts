// A tenant's token cannot make the sandbox's memory grow without bound: a sandbox process (the built command,
// in memory) holds about 3.5 MB of events for one tenant (an answer small enough to be kept, so the caches'
// byte bounds are what holds), and the tenant asks for them (`listEvents`) under 180
// distinct queries (an undocumented parameter, a documented one with values that name nothing, and both). Every
// cache is bounded in bytes, so the process's resident memory stays within MEMORY_BOUND_MIB of what it was once
// the first answer was made (garbage of the answers being made included). Without the bounds, each distinct
// query kept its own copy of the answer, and the same run passed the bound within a few dozen queries.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { launchSandbox, residentMib, type SandboxProcess, stopSandbox } from '../../testing/sandbox-process.js';
import { sandboxToken } from '../../testing/sandbox-users.js';
import { MAX_TEXT_CHARS } from '../store/quotas.js';

/** How far the process's resident memory may grow past its size after the first answer (MiB). */
const MEMORY_BOUND_MIB = 256;
const EVENTS = 5;
const EVENT_BYTES = 700_000;
const QUERIES = 180;

let sandbox: SandboxProcess | undefined;
beforeAll(async () => {
  sandbox = await launchSandbox(['--memory']);
}, 60_000);
afterAll(() => stopSandbox(sandbox), 30_000);

it(`keeps its memory within ${MEMORY_BOUND_MIB} MiB of its start while a tenant reads a 3.5 MB answer under ${QUERIES} distinct queries`, async () => {
  const running = sandbox!;
  const control = createSandboxClient({ baseUrl: running.url });
  const tenant = await orThrow(control.createTenant({ body: { name: 'Large answers' } }));
  for (let i = 0; i < EVENTS; i++) {
    await orThrow(
      control.triggerEvent({
        body: {
          tenantId: tenant.clientId,
          event: 'user.created',
          // Texts of at most MAX_TEXT_CHARS, the sandbox's bound on any one text.
          subject: {
            id: randomUUID(),
            ...Object.fromEntries(
              Array.from({ length: Math.ceil(EVENT_BYTES / MAX_TEXT_CHARS) }, (_, i) => [
                `note${i}`,
                'x'.repeat(MAX_TEXT_CHARS),
              ]),
            ),
          },
        },
      }),
    );
  }
  const token = await sandboxToken(running.url, 'business', tenant.businessCredentials);
  const read = async (query: string) => {
    const answer = await fetch(`${running.url}/sandbox/events${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await answer.text();
    return { status: answer.status, bytes: text.length };
  };
  const first = await read('');
  expect(first.status).toBe(200);
  expect(first.bytes).toBeGreaterThan(EVENTS * EVENT_BYTES);
  const pid = running.child.pid!;
  const start = residentMib(pid);
  let peak = start;
  const statuses = new Set<number>();
  let asked = 0;
  for (let i = 0; i < QUERIES; i++) {
    asked++;
    const query = [`?cachebuster=${i}`, `?tenant=${randomUUID()}`, `?tenant=${tenant.clientId}&n=${i}`][i % 3]!;
    const { status } = await read(query);
    statuses.add(status);
    peak = Math.max(peak, residentMib(pid));
    // Stopped as soon as the bound is passed: the process would otherwise grow by gigabytes.
    if (peak - start > MEMORY_BOUND_MIB) break;
  }
  console.log(
    `[memory-bound] resident memory: ${start.toFixed(0)} MiB after the first answer, peak ${peak.toFixed(0)} MiB over ${asked} of ${QUERIES} distinct queries (bound +${MEMORY_BOUND_MIB} MiB)`,
  );
  expect(peak - start).toBeLessThanOrEqual(MEMORY_BOUND_MIB);
  // Each query was answered: 200, or the operation's documented refusal of a parameter it does not take.
  expect([...statuses].every((s) => s === 200 || s === 400)).toBe(true);
}, 180_000);
