// Names read from files as `ramp-api usage --check` shows them: a consumer's name, the file:line of a use and a
// description's title that hold line breaks or terminal escape sequences (clearing the screen, a hyperlink) are
// shown escaped, so that none forges a line of the verdict or acts on the terminal.
import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER, payoutIdReader, TERMINAL_ATTACK, TERMINAL_ATTACKS } from '../../testing/hostile-text.js';
import { readBundleJson } from '../../testing/repo.js';
import type { OpenApiDocument } from '../lookup/index.js';
import { familyBundle } from './bundles.js';
import { checkUsage, targetFamilies } from './check.js';
import { oneLine, UsageError } from './errors.js';
import { visibleText } from './visible-text.js';

const ATTACK = TERMINAL_ATTACK;
const CONTROL = CONTROL_CHARACTER;

describe('visibleText', () => {
  it('shows each control character as JSON writes it', () => {
    expect(visibleText(ATTACK)).toBe(
      '\\n✔ No breaking change.\\u001b[2J\\u001b]8;;http://evil.example\\u0007x\\u001b]8;;\\u0007',
    );
  });

  it('escapes DEL, C1 controls, line separators and bidirectional overrides, and leaves other text alone', () => {
    expect(visibleText('a\u007fb\u009bc\u2028d\u202ee\tf\rg')).toBe('a\\u007fb\\u009bc\\u2028d\\u202ee\\tf\\rg');
    expect(visibleText('payout-service (src/a.ts:3) ✔ ü 日本')).toBe('payout-service (src/a.ts:3) ✔ ü 日本');
  });
});

describe('usage --check with names that would forge its verdict', () => {
  const current = familyBundle('v1', readBundleJson<OpenApiDocument>('v1'));
  const next = structuredClone(current.doc) as Record<string, any>;
  delete next.components.schemas.Payout.properties.id;
  next.components.schemas.Payout.required = next.components.schemas.Payout.required.filter((n: string) => n !== 'id');
  const usage = payoutIdReader(`pay-app${ATTACK}`, `src/pay.ts${TERMINAL_ATTACKS.hyperlink}:8`);
  const { lines } = checkUsage(usage, new Map([['v1', current]]), new Map([['v1', next as OpenApiDocument]]));
  const output = `${lines.join('\n')}\n`;

  it('prints no control character from them, and each line is one of its own', () => {
    expect(output.replace(/\n/g, '')).not.toMatch(CONTROL);
    expect(output.split('\n').filter((line) => /No breaking change/.test(line) && !line.includes('pay-app'))).toEqual(
      [],
    );
  });

  it("ends with the real verdict, the consumer's name escaped in it", () => {
    const consumer = `pay-app${visibleText(ATTACK)}`;
    expect(lines.at(-2)).toBe(`    breaks ${consumer} (src/pay.ts${visibleText(TERMINAL_ATTACKS.hyperlink)}:8)`);
    expect(lines.at(-1)).toBe(`1 breaking change(s) break ${consumer}.`);
  });

  it("names a description whose title is none of the project's in one line, the title escaped", () => {
    const titled = { ...next, info: { ...next.info, title: `Ramp${ATTACK}` } } as OpenApiDocument;
    let error: unknown;
    try {
      targetFamilies({ source: 'next.json', doc: titled }, new Map([['v1', current]]));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    const line = oneLine(error as UsageError);
    expect(line).not.toMatch(CONTROL);
    // A line break of a message is read as a space (messages that quote a compiler's are several lines).
    expect(line).toContain(`next.json describes "Ramp ${visibleText(ATTACK.slice(1))}"`);
  });
});
