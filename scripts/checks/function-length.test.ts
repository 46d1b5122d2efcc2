// No function in src/ or scripts/ is longer than MAX_FUNCTION_LINES, as the TypeScript parser measures it
// (`npx tsx scripts/checks/function-length.ts [LINES]` lists them). Biome's noExcessiveLinesPerFunction is not used for
// this: it does not count the lines of JSX, so a component hundreds of lines long passes it. Test files are not
// held to it (a suite's describe callback is a list of its tests).
import { describe, expect, it } from 'vitest';
import { longFunctions, MAX_FUNCTION_LINES, measureFunctions, sourceFiles } from './function-length.js';

describe('function length', () => {
  const code = sourceFiles().filter((file) => !/\.test\.tsx?$/.test(file));
  const long = longFunctions(code).map((f) => `${f.at.replace(/:\d+$/, '')} ${f.name}`);

  it(`finds no function over ${MAX_FUNCTION_LINES} lines outside tests`, () => {
    expect(long).toEqual([]);
  });

  it('measures a function from its first line to its last, JSX and arrow functions included', () => {
    const rows = Array.from({ length: 130 }, (_, i) => `      <p>row ${i}</p>`).join('\n');
    const text = `function Page() {\n  return (\n    <div>\n${rows}\n    </div>\n  );\n}\nconst short = () => 1;\n`;
    expect(measureFunctions('page.tsx', text)).toEqual([
      { at: 'page.tsx:1', name: 'Page', lines: 136 },
      { at: 'page.tsx:137', name: 'short', lines: 1 },
    ]);
  });
});
