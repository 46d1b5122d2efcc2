// The delivery schedule of an outbound event, computed from an endpoint's retryConfig with the defaults
// the v1 description declares (never restated here).
import { v1DeliveryDefaults } from '../generated/v1-meta.js';

export interface RetryConfigInput {
  max_attempts?: number;
  initial_delay_ms?: number;
  multiplier?: number;
}

export interface DeliverySchedule {
  /** How long the service waits for your endpoint before a call counts as failed. */
  timeoutMs: number;
  /** Calls made at most, the first one included: `max_attempts`. */
  calls: number;
  /** Delay before each retry, in milliseconds: one fewer than `calls`. */
  retryDelaysMs: number[];
}

/**
 * When the service calls your endpoint: `max_attempts` calls in all (the source's limits table: "Webhook
 * attempts: 3 by default"), the first at once, each retry after the previous call failed, the first retry after
 * `initial_delay_ms` and each later delay multiplied by `multiplier`. With the defaults: 3 calls, at 0 s, 1 s and
 * 5 s (delays of 1 s and 4 s). At least the first call is made.
 *
 * Breaking change (see CHANGELOG.md): until 0.1.0 this read `max_attempts` as retries after the first call,
 * giving 4 calls with delays of 1 s, 4 s and 16 s.
 */
export function deliverySchedule(
  config: { timeoutMs?: number; retryConfig?: RetryConfigInput } = {},
): DeliverySchedule {
  const attempts = config.retryConfig?.max_attempts ?? v1DeliveryDefaults.max_attempts;
  const first = config.retryConfig?.initial_delay_ms ?? v1DeliveryDefaults.initial_delay_ms;
  const multiplier = config.retryConfig?.multiplier ?? v1DeliveryDefaults.multiplier;
  const calls = Math.max(1, attempts);
  return {
    timeoutMs: config.timeoutMs ?? v1DeliveryDefaults.timeoutMs,
    calls,
    retryDelaysMs: Array.from({ length: calls - 1 }, (_, i) => first * multiplier ** i),
  };
}
