// Trigger values: the outcomes a team's own app forces through the ordinary API with a value in a field the
// request already carries (declared once, `x-sandbox-triggers` in the control API's description, generated into
// `ramp-api/triggers`). A handler asks `triggerIn` whether its request carries one, then runs the transition the
// trigger names through the same function the control operation uses: same state table, same events.
import { sandboxTriggers } from 'ramp-api/triggers';

/** A trigger as a handler reads it: the transition it runs, or the escalation its refusal carries. */
export interface SandboxTrigger {
  name: string;
  operationId: string;
  transition?: string;
  actionType?: string;
  /** Seconds of sandbox time before the transition runs (./outcomes.ts); absent: at once. */
  delaySeconds?: number;
}

/** Whether `value` is an amount ending in exactly `cents` hundredths (`250000.13` for 13). */
function endsInCents(value: unknown, cents: number): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const hundredths = Math.round(value * 100);
  return Math.abs(value * 100 - hundredths) < 1e-6 && Math.abs(hundredths % 100) === cents;
}

/**
 * The trigger the request to `operationId` carries, if any: `input` holds the request's body (or, for a trigger
 * `in: query`, its query parameters) by field name.
 */
export function triggerIn(
  operationId: string,
  input: { body?: unknown; query?: Record<string, unknown> },
): SandboxTrigger | undefined {
  return sandboxTriggers.find((t): boolean => {
    if (t.operationId !== operationId) return false;
    const source = (t.in === 'query' ? input.query : input.body) as Record<string, unknown> | undefined;
    const value = source?.[t.field];
    return 'value' in t ? value === t.value : endsInCents(value, t.cents);
  }) as SandboxTrigger | undefined;
}
