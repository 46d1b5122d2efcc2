// The outcome the console shows beside conformance: a success, or a refusal with its code and the next step the
// sandbox's refusal catalog gives for it.
import { describe, expect, it } from 'vitest';
import { refusalBody, refusals } from '../sandbox/core/refusals.js';
import { outcomeLine, outcomeOf } from './outcome.js';

const answer = (refusal: ReturnType<(typeof refusals)[keyof typeof refusals]>) =>
  outcomeOf(refusal.status, JSON.stringify(refusalBody(refusal)));

describe('the outcome of an answer', () => {
  it('reads a success as accepted', () => {
    expect(outcomeLine(outcomeOf(200, '[]'))).toBe('The service accepted the request (200).');
  });

  it("names a refusal by its code and status, with the catalog's next step and control operation", () => {
    const outcome = answer(refusals.userNotApproved('The user is not approved.'));
    expect(outcomeLine(outcome)).toBe('The service refused: user_not_approved (403).');
    expect(outcome).toMatchObject({
      message: 'The user is not approved.',
      next: { say: 'approve the user', operationId: 'approveUser' },
    });
  });

  it('takes the next step of the refusal the status names where two share a code', () => {
    expect(answer(refusals.invalidRequest(422, 'amount must be a number')).kind).toBe('refused');
    expect(answer(refusals.invalidRequest(422, 'x'))).toMatchObject({
      next: { say: expect.stringMatching(/^fix the request/) },
    });
    expect(answer(refusals.unauthorized('No token.'))).toMatchObject({ next: { operationId: 'createTenant' } });
  });

  it('says a refusal without a code plainly, and offers no step it cannot know', () => {
    const outcome = outcomeOf(502, '<html>Bad gateway</html>');
    expect(outcomeLine(outcome)).toBe('The service refused: no error code (502).');
    expect(outcome).not.toHaveProperty('next');
  });
});
