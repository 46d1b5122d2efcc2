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
  /** Calls made at most: the first one plus the retries. */
  calls: number;
  /** Delay before each retry, in milliseconds. */
  retryDelaysMs: number[];
}

/**
 * When the service calls your endpoint: a first call, then up to `max_attempts` retries, the first after
 * `initial_delay_ms` and each later delay multiplied by `multiplier`. The source leaves open whether
 * `max_attempts` counts retries or all calls; like the description, this reads it as retries.
 */
export function deliverySchedule(config: { timeoutMs?: number; retryConfig?: RetryConfigInput } = {}): DeliverySchedule {
  const retries = config.retryConfig?.max_attempts ?? v1DeliveryDefaults.max_attempts;
  const first = config.retryConfig?.initial_delay_ms ?? v1DeliveryDefaults.initial_delay_ms;
  const multiplier = config.retryConfig?.multiplier ?? v1DeliveryDefaults.multiplier;
  return {
    timeoutMs: config.timeoutMs ?? v1DeliveryDefaults.timeoutMs,
    calls: 1 + retries,
    retryDelaysMs: Array.from({ length: retries }, (_, i) => first * multiplier ** i),
  };
}
