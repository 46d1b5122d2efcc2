// Removes secrets (tokens) from what a server sent back, in the forms a server echoes them: the value itself,
// URL-encoded, and base64 or base64url (also when the secret sits inside a longer encoded text).

const MARK = '[REDACTED]';
/** A form this long is replaced wherever it stands; a shorter one only where it is a whole word. */
const ANYWHERE_FROM = 12;
const WORD_CHAR = /[A-Za-z0-9]/;

/**
 * The base64 characters that encode `bytes` whatever stands before and after them in a longer text: for
 * each of the three alignments, the groups of four characters made only of the secret's bytes.
 */
function base64Cores(bytes: Uint8Array): string[] {
  const cores: string[] = [];
  const binary = String.fromCharCode(...bytes);
  for (let offset = 0; offset < 3; offset++) {
    const encoded = btoa('\0'.repeat(offset) + binary).replace(/=+$/, '');
    const start = offset === 0 ? 0 : 4;
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : Math.floor((offset + bytes.length) / 3) * 4;
    const core = encoded.slice(start, end);
    if (core.length >= 8) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** Every text form under which `secret` is redacted, longest first. */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    const encoded = encodeURIComponent(secret);
    forms.add(encoded);
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase()));
    for (const core of base64Cores(new TextEncoder().encode(secret))) forms.add(core);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every form replaced by `[REDACTED]`; a short form only where it is not part of a longer word. */
export function redactText(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) {
    if (!result.includes(form)) continue;
    if (form.length >= ANYWHERE_FROM) {
      result = result.split(form).join(MARK);
      continue;
    }
    let out = '';
    let from = 0;
    for (let at = result.indexOf(form); at !== -1; at = result.indexOf(form, at + form.length)) {
      const before = result[at - 1];
      const after = result[at + form.length];
      if ((before && WORD_CHAR.test(before)) || (after && WORD_CHAR.test(after))) continue;
      out += result.slice(from, at) + MARK;
      from = at + form.length;
    }
    result = out + result.slice(from);
  }
  return result;
}

/** A copy of `value` in which every string and every object key has the forms redacted. */
export function redactValue(value: unknown, forms: readonly string[]): unknown {
  if (forms.length === 0) return value;
  if (typeof value === 'string') return redactText(value, forms);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, forms));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redactText(key, forms), redactValue(item, forms)]),
    );
  }
  return value;
}
