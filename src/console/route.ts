// The operation a reference page's address names: Redoc's route is the hash (`#/tag/operationid`). Anyone can
// link to a page with any hash, so nothing in it may throw: a part that is not valid percent-encoding is
// compared as it is.

const decoded = (part: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** The operationId the hash names, if any. */
export function operationInHash(hash: string, operationIds: readonly string[]): string | undefined {
  const parts = decoded(hash)
    .split('/')
    .flatMap((part) => decoded(part).split('/'))
    .map((part) => part.toLowerCase());
  return operationIds.find((id) => parts.includes(id.toLowerCase()));
}
