// The sandbox's trigger values: declared once (x-sandbox-triggers), and what is made from that declaration is
// current: the constants of ramp-api/triggers and the table in the control API's description and in the guide.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { triggerIn } from '../../src/sandbox/core/triggers.js';
import { repoRoot } from './apis.js';
import { readTriggers, renderTableInto, TRIGGER_TABLE_FILES, triggersModule, triggersTable } from './triggers.js';

describe('trigger values', () => {
  const triggers = readTriggers();

  it('are generated into ramp-api/triggers and into the tables as declared (npm run generate)', () => {
    expect(readFileSync(join(repoRoot, 'src/client/generated/triggers.ts'), 'utf8'), 'run npm run generate').toBe(
      triggersModule(triggers),
    );
    for (const file of TRIGGER_TABLE_FILES) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      expect(renderTableInto(text, triggersTable(triggers), file), `${file}: run npm run generate`).toBe(text);
    }
  });

  it('cover each outcome the sandbox can force and each tierEscalation actionType the source names', () => {
    expect(triggers.map((t) => t.transition).filter(Boolean)).toEqual(
      expect.arrayContaining([
        'rejectUser',
        'rejectBankAccount',
        'rejectPayout',
        'rejectOnRamp',
        'cancelWalletTransfer',
      ]),
    );
    const actionTypes = triggers.map((t) => t.actionType).filter(Boolean);
    expect(actionTypes.sort()).toEqual(['BLOCK', 'DOC_UPLOAD', 'FORM_URL', 'NOTIFY_ONLY', 'QR_APP', 'VIDEO_KYC']);
  });

  it('are found in a request only by their exact value or cents; a request without one carries none', () => {
    expect(triggerIn('createPayout', { body: { amount: 10, paymentMethod: 'SANDBOX_REJECTED' } })?.name).toBe(
      'PAYOUT_REJECTED',
    );
    expect(triggerIn('createPayout', { body: { amount: 10, paymentMethod: 'ACH' } })).toBeUndefined();
    expect(triggerIn('createOnRamp', { body: { amount: 250000.13 } })?.name).toBe('PAYIN_REJECTED');
    expect(triggerIn('createOnRamp', { body: { amount: 250000.96 } })?.actionType).toBe('BLOCK');
    expect(triggerIn('createOnRamp', { body: { amount: 250000.14 } })).toMatchObject({
      name: 'PAYIN_REJECTED_LATER',
      transition: 'rejectOnRamp',
      delaySeconds: 60,
    });
    expect(triggerIn('createPayout', { body: { paymentMethod: 'SANDBOX_REJECTED' } })?.delaySeconds).toBeUndefined();
    expect(triggerIn('createOnRamp', { body: { amount: 250000.131 } })).toBeUndefined();
    expect(triggerIn('createOnRamp', { body: { amount: 250000 } })).toBeUndefined();
    expect(triggerIn('generateKycUrl', { query: { template_id: 'sandbox-kyc-failed' } })?.name).toBe('KYC_FAILED');
    expect(triggerIn('generateKycUrl', { body: { template_id: 'sandbox-kyc-failed' } })).toBeUndefined();
  });
});
