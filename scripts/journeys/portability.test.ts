import { describe, expect, it } from 'vitest';
import type { ArazzoFile } from '../../src/sandbox/journeys/arazzo.js';
import { parseArazzo, readArazzoFiles } from '../../src/sandbox/journeys/arazzo-files.js';
import { checkPortability, portabilityReport } from './portability.js';
import { conditionExpressions, expressionError } from './runtime-expression.js';
import { workflowsDir } from './workflows.js';

describe('the journeys, as any Arazzo 1.0.1 runner reads them', () => {
  it('every workflow file passes the portability check', () => {
    const files = readArazzoFiles(workflowsDir);
    expect(files.length).toBeGreaterThan(0);
    expect(portabilityReport(checkPortability(files))).toBe('');
  });
});

describe('runtime expressions against the ABNF', () => {
  it.each([
    '$url',
    '$method',
    '$statusCode',
    '$request.header.x-integration-register',
    '$request.query.user_id',
    '$request.path.userId',
    '$request.body',
    '$response.body#/data/0/status',
    '$response.body#/a~1b/c~0d',
    '$inputs.clientId',
    '$outputs.userId',
    '$steps.register.outputs.userId',
    '$workflows.registerUser.outputs.userId',
    '$sourceDescriptions.v1.registerUser',
    '$components.parameters.page',
  ])('%s is one', (text) => {
    expect(expressionError(text)).toBeUndefined();
  });

  it.each([
    ['$faker.string.uuid()', /\$faker is not a runtime expression/],
    ['$statusCodes', /\$statusCodes is not a runtime expression/],
    ['$response.status', /is followed by header\., query\., path\. or body/],
    ['$response.header.', /header name/],
    ['$response.header.a b', /header name/],
    ['$response.body#data', /does not start with \//],
    ['$response.body#/a~2', /~ that is not ~0 or ~1/],
    ['$inputs.a"b', /JSON string characters/],
    ['inputs.clientId', /starts with \$/],
  ])('%s is not', (text, why) => {
    expect(expressionError(text)).toMatch(why);
  });

  it('finds the expressions of a simple condition outside its quoted literals', () => {
    expect(conditionExpressions("$statusCode == 200 && $response.body#/status != '$inputs.x'")).toEqual([
      '$statusCode',
      '$response.body#/status',
    ]);
  });
});

/** A crafted Arazzo file named `name`, as the journeys' reader reads it (JSON is YAML). */
const arazzoFile = (name: string, doc: Record<string, unknown>): ArazzoFile => ({
  file: name,
  name,
  doc: parseArazzo(name, JSON.stringify({ arazzo: '1.0.1', info: { title: name, version: '1' }, ...doc })),
});
/** One file with one workflow of the given steps (and inputs), as a crafted bad journey. */
const crafted = (steps: unknown[], extra: Record<string, unknown> = {}): ArazzoFile =>
  arazzoFile('bad.arazzo.yaml', {
    sourceDescriptions: [{ name: 'v1', url: '../v1/openapi.yaml', type: 'openapi' }],
    workflows: [{ workflowId: 'bad', steps, ...extra }],
  });
const problems = (file: ArazzoFile, ...others: ArazzoFile[]) =>
  checkPortability([file, ...others]).map((p) => ({ where: p.where, rule: p.rule, message: p.message }));

describe('the portability check catches', () => {
  it('a runtime expression outside the ABNF: whole, embedded, in a condition, or left in text', () => {
    const found = problems(
      crafted([
        {
          stepId: 'register',
          operationId: '$sourceDescriptions.v1.registerUser',
          requestBody: {
            payload: { external_user_id: '$faker.string.uuid()', note: 'id {$random}', name: 'n-$faker.x' },
          },
          successCriteria: [{ condition: '$status == 201' }],
        },
      ]),
    );
    expect(found.map((p) => [p.where, p.rule])).toEqual([
      ['bad.register.requestBody.payload.external_user_id', 'expression'],
      ['bad.register.requestBody.payload.note', 'expression'],
      ['bad.register.requestBody.payload.name', 'expression'],
      ['bad.register.successCriteria[0]', 'expression'],
    ]);
    expect(found[0]!.message).toMatch(/\$faker is not a runtime expression of Arazzo 1\.0\.1/);
    expect(found[2]!.message).toMatch(/without \{braces\}/);
  });

  it('an x- extension that changes how a step runs (x-security)', () => {
    const step = {
      stepId: 'kyc',
      operationId: '$sourceDescriptions.v1.generateKycUrl',
      'x-security': [{ schemeName: 'bearerAuth', values: { token: '$inputs.accessToken' } }],
    };
    expect(problems(crafted([step]))).toEqual([
      { where: 'bad.kyc', rule: 'extension', message: expect.stringMatching(/^x-security: .*Authorization header/) },
    ]);
    const { 'x-security': _, ...rest } = step;
    const header = { name: 'Authorization', in: 'header', value: 'Bearer {$inputs.accessToken}' };
    expect(problems(crafted([{ ...rest, parameters: [header] }]))).toEqual([]);
  });

  it('a JSONPath or XPath criterion that embeds an expression, not one that does not', () => {
    const criterion = (type: unknown, condition: string) => ({
      stepId: 'state',
      operationId: '$sourceDescriptions.v1.listClientUsers',
      successCriteria: [{ context: '$response.body', type, condition }],
    });
    const embedded = "$..users[?(@.userId == {$steps.register.outputs.userId} && @.status == 'rejected')]";
    expect(problems(crafted([criterion('jsonpath', embedded)]))).toEqual([
      { where: 'bad.state.successCriteria[0]', rule: 'criterion', message: expect.stringMatching(/embeds/) },
    ]);
    const xpath = { type: 'xpath', version: 'xpath-30' };
    expect(problems(crafted([criterion(xpath, '//user[@id=$inputs.userId]')]))[0]?.rule).toBe('criterion');
    expect(problems(crafted([criterion('jsonpath', "$..users[?(@.status == 'rejected')]")]))).toEqual([]);
  });

  it('a call that relies on an input default, or leaves out a required input; a started workflow with a default', () => {
    const child = {
      workflowId: 'child',
      inputs: {
        type: 'object',
        required: ['token'],
        properties: { token: { type: 'string' }, amount: { type: 'number', default: 150000 } },
      },
      steps: [],
    };
    const file = crafted([{ stepId: 'call', workflowId: 'child', parameters: [{ name: 'other', value: 1 }] }]);
    file.doc.workflows.push(child);
    expect(problems(file)).toEqual([
      { where: 'bad.call', rule: 'default', message: "does not pass child's required input token" },
      { where: 'bad.call', rule: 'default', message: "relies on the default of child's input amount: pass it" },
    ]);
    const started = crafted([], { inputs: { type: 'object', properties: { balance: { default: 5 } } } });
    expect(problems(started)).toEqual([
      { where: 'bad', rule: 'default', message: expect.stringMatching(/^input balance has a default/) },
    ]);
  });

  it('follows a call into another Arazzo file named by a source description', () => {
    const common = arazzoFile('common.arazzo.yaml', {
      sourceDescriptions: [],
      workflows: [
        { workflowId: 'registerUser', steps: [], inputs: { properties: { result: { default: 'Success' } } } },
      ],
    });
    const file = crafted([{ stepId: 'user', workflowId: '$sourceDescriptions.common.registerUser' }]);
    file.doc.sourceDescriptions.push({ name: 'common', url: 'common.arazzo.yaml', type: 'arazzo' });
    expect(problems(file, common)).toEqual([
      { where: 'bad.user', rule: 'default', message: "relies on the default of registerUser's input result: pass it" },
    ]);
  });
});
