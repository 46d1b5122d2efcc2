// The rules of request bodies as a whole, and of the media types of request bodies, responses and events' payloads
// (the schema under each media type both keep is compared by the schema rules).
import { type CompatRule, rule } from './rule.js';

const requestBodyBecameRequired = rule({
  id: 'request-body-became-required',
  description: 'The request body is now required (or a required one was added): calls without a body are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'body',
  check: ({ old, new: next }, report) => {
    if (next?.required && !old?.required) report(old ? 'request body is now required' : 'required request body added');
  },
});

const requestBodyRemoved = rule({
  id: 'request-body-removed',
  description: 'The operation no longer takes a request body: calls that send one no longer compile.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'body',
  check: ({ old, new: next }, report) => {
    if (old && !next) report('request body removed');
  },
});

const removedTypes = (old: object, next: object) => Object.keys(old).filter((type) => !(type in next));
const addedTypes = (old: object, next: object) => Object.keys(next).filter((type) => !(type in old));
const now = (next: object) => (Object.keys(next).length ? ` (now ${Object.keys(next).join(', ')})` : '');

const requestMediaTypeRemoved = rule({
  id: 'request-media-type-removed',
  description: 'A media type of a request body is no longer accepted: calls that send it are refused.',
  direction: 'request',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'content',
  check: ({ old, new: next }, report) => {
    for (const type of removedTypes(old, next)) report(`media type ${type} no longer accepted${now(next)}`);
  },
});

const responseMediaTypeRemoved = rule({
  id: 'response-media-type-removed',
  description:
    "A media type of a response or an event's payload is no longer sent: clients that parse it find another.",
  direction: 'response',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'content',
  check: ({ old, new: next }, report) => {
    for (const type of removedTypes(old, next)) report(`media type ${type} no longer sent${now(next)}`);
  },
});

const requestMediaTypeAdded = rule({
  id: 'request-media-type-added',
  description: 'A request body is accepted in one more media type.',
  direction: 'request',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'content',
  check: ({ old, new: next }, report) => {
    for (const type of addedTypes(old, next)) report(`media type ${type} added`);
  },
});

const responseMediaTypeAdded = rule({
  id: 'response-media-type-added',
  description:
    "A response or an event's payload that had a media type may now come in another: clients parse what they did not expect.",
  direction: 'response',
  verdict: 'breaking',
  breaks: 'callers',
  on: 'content',
  check: ({ old, new: next }, report) => {
    if (!Object.keys(old).length) return;
    for (const type of addedTypes(old, next)) report(`media type ${type} added`);
  },
});

const responseContentAdded = rule({
  id: 'response-content-added',
  description: "A response or an event's payload that had no content now has a media type.",
  direction: 'response',
  verdict: 'ok',
  breaks: 'nobody',
  on: 'content',
  check: ({ old, new: next }, report) => {
    if (Object.keys(old).length) return;
    for (const type of addedTypes(old, next)) report(`media type ${type} added`);
  },
});

/** In the order they are applied. */
export const RULES: CompatRule[] = [
  requestBodyBecameRequired,
  requestBodyRemoved,
  requestMediaTypeRemoved,
  responseMediaTypeRemoved,
  requestMediaTypeAdded,
  responseMediaTypeAdded,
  responseContentAdded,
];
