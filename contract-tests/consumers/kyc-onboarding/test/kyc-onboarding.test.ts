// The KYC onboarding app against a sandbox: a sign-up form registered, a form the service refuses, the KYC link
// of a registered user and of one the tenant does not have.
import { randomUUID } from 'node:crypto';
import type { components } from 'ramp-api/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerSandbox, startConsumerSandbox } from '../../../../src/testing/consumer-sandbox.js';

type RegisterUserRequest = components['schemas']['RegisterUserRequest'];

let run: ConsumerSandbox;
let register: typeof import('../src/register.js');
let link: typeof import('../src/kyc-link.js');

beforeAll(async () => {
  run = await startConsumerSandbox('KYC onboarding');
  register = await import('../src/register.js');
  link = await import('../src/kyc-link.js');
});

afterAll(async () => {
  await run?.sandbox.close();
});

/** A sign-up form as the app's web page posts it: every value a text. */
const form = (overrides: Record<string, string> = {}) =>
  new Map(
    Object.entries({
      first_name: 'Andrés',
      second_name: 'Felipe',
      first_surname: 'Pérez',
      second_surname: 'Castaño',
      birth_date: '1988-11-02',
      cell_phone_number: '+573001112233',
      email: `andres.${randomUUID().slice(0, 8)}@correo.example`,
      document_type: 'CC',
      document_number: String(Date.now()).slice(-10),
      document_issue_date: '2009-05-12',
      document_issuance_country: 'Colombia',
      occupation: 'Ingeniera de software',
      kyc_validations: '{"score":0.97}',
      identity_verification: '{"liveness":"passed"}',
      ...overrides,
    }),
  );

describe('registerFromForm', () => {
  // A form's values are texts, and the service wants objects, numbers and a boolean in a registration: it refuses
  // every form, which is this app's known limitation.
  it('refuses a form the service refuses', async () => {
    await expect(register.registerFromForm(form())).rejects.toThrow('The form was refused.');
  });
});

describe('kycLink', () => {
  it('gives the link of a registered user', async () => {
    // The form's texts, with the objects, numbers and boolean the service wants, through the app's own client.
    const body = {
      ...(Object.fromEntries(form()) as Record<string, string>),
      home_info: {
        neighborhood: 'Chapinero',
        address_home: 'Calle 63 # 9-15',
        country_home: 'Colombia',
        city_home: 'Bogotá',
        department: 'Cundinamarca',
      },
      incomes: { monthly_incomes: 9_500_000 },
      expenses: { month_expenses: 4_200_000 },
      total_assets: 180_000_000,
      total_liabilities: 35_000_000,
      is_pep: false,
      supporting_documents: [],
    } as unknown as RegisterUserRequest;
    const { data } = await register.v1.registerUser({
      params: { header: { 'x-integration-register': run.tenant.integrationRegister } },
      body,
    });
    const url = await link.kycLink(data!.user_id);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('gives null for a user the tenant does not have', async () => {
    expect(await link.kycLink(randomUUID())).toBeNull();
  });
});
