// The state tables name operations and events by the generated types: a trigger that is no operationId of the
// three descriptions, or an event that is no event of the v1 description, fails to compile (the
// `@ts-expect-error` lines below fail `npm run typecheck` the day such a name compiles). At run time, every
// trigger is an operation of the bundles and every event one the v1 description lists.

import { listOperations } from 'ramp-api/lookup';
import { eventNames } from 'ramp-api/webhooks';
import { describe, expect, it } from 'vitest';
import { readBundleFile } from '../contract/document.js';
import { SANDBOX_FAMILIES } from '../server.js';
import { type Transition, machines as tables } from './states.js';

const row = { from: null, condition: 'none', to: 'pending', source: false } as const;

describe('the state tables', () => {
  it('refuse, when compiled, a trigger that is no operation and an event that is no event', () => {
    const typos: Transition[] = [
      // @ts-expect-error: no operation is called approveUsr
      { ...row, trigger: 'approveUsr', events: [] },
      // @ts-expect-error: no event is called user.craeted
      { ...row, trigger: 'registerUser', events: ['user.craeted'] },
    ];
    const names = new Set(
      SANDBOX_FAMILIES.flatMap((family) => listOperations(readBundleFile(family))).map((e) => e.operationId),
    );
    expect(typos.map((t) => names.has(t.trigger) && t.events.every((e) => eventNames.includes(e)))).toEqual([
      false,
      false,
    ]);
  });

  it('name only operations of the bundles and events of the v1 description', () => {
    const operations = new Set(
      SANDBOX_FAMILIES.flatMap((family) => listOperations(readBundleFile(family))).map((e) => e.operationId),
    );
    const rows = Object.entries(tables).flatMap(([name, machine]) => machine.map((t) => ({ name, ...t })));
    expect(rows.filter((t) => !operations.has(t.trigger)).map((t) => `${t.name}: ${t.trigger}`)).toEqual([]);
    expect(rows.flatMap((t) => t.events.filter((e) => !eventNames.includes(e)).map((e) => `${t.name}: ${e}`))).toEqual(
      [],
    );
    expect(rows.length).toBeGreaterThan(15);
  });
});
