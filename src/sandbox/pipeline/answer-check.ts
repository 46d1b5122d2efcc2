// Stage 7, the answer check: every answer against the operation's documented responses. One that breaks the
// description is recorded and, by default, replaced with a 500 naming the operation and the field.
import type { Route } from '../contract/router.js';
import type { SandboxLogger } from '../core/logger.js';
import { refusalBody, refusals } from '../core/refusals.js';

export type CheckAnswer = (route: Route, status: number, body: unknown) => { status: number; body: unknown };

export function createAnswerCheck(
  violations: string[],
  onViolation: 'fail' | 'log',
  logger: SandboxLogger,
): CheckAnswer {
  return (route, status, body) => {
    const problems = route.checkResponse(status, body);
    if (problems?.length === 0) return { status, body };
    const message = `${route.entry.operationId} answered ${status}, which breaks the description: ${problems === null ? `status ${status} is not documented` : problems.join('; ')}`;
    violations.push(message);
    logger.error(`[sandbox] ${message}`);
    if (onViolation === 'log') return { status, body };
    const violation = refusals.contractViolation(message);
    return { status: violation.status, body: refusalBody(violation) };
  };
}
