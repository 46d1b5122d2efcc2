// The rules of an operation's response statuses (the content of a status both keep is compared by the media-type
// and schema rules).
import { type CompatRule, rule } from './rule.js';

/** A success status (2xx). */
export const isSuccess = (status: string) => /^2/.test(status);

const successStatusRemoved = rule({
  id: 'success-status-removed',
  description: 'A success status (2xx) is no longer documented, or was changed to another: clients check for it.',
  direction: 'response',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'response',
  check: ({ status, new: next, newSuccess }, report) => {
    if (next || !isSuccess(status)) return;
    const now = newSuccess.length ? `changed to ${newSuccess.join(', ')}` : 'removed';
    report(`success response ${status} ${now}; clients check for ${status}`);
  },
});

const responseStatusRemoved = rule({
  id: 'response-status-removed',
  description: 'A status other than a success is no longer documented.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'response',
  check: ({ status, old, new: next }, report) => {
    if (old && !next && !isSuccess(status)) report(`response ${status} no longer documented`);
  },
});

const responseStatusAdded = rule({
  id: 'response-status-added',
  description: 'A status is documented that was not.',
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'response',
  check: ({ status, old }, report) => {
    if (!old) report(`response ${status} added`);
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [successStatusRemoved, responseStatusRemoved, responseStatusAdded];
