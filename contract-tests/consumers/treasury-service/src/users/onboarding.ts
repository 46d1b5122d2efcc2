// Onboarding: the registration with a typed local body, then the identity-verification link.
import { ApiError, orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';
import type { V1Schemas } from '../api/types.js';
import type { Applicant } from './applicant.js';

export type Registration = { userId: string; status: string; person: string } | { refused: string };

export async function register(clients: Clients, integrationId: string, a: Applicant): Promise<Registration> {
  const body: V1Schemas['RegisterUserRequest'] = {
    first_name: a.firstName,
    second_name: a.middleName,
    first_surname: a.surname,
    second_surname: a.secondSurname,
    birth_date: a.birthDate,
    cell_phone_number: a.phone,
    email: a.email,
    home_info: {
      neighborhood: a.address.neighborhood,
      address_home: a.address.street,
      country_home: 'Colombia',
      city_home: a.address.city,
      department: a.address.department,
    },
    document_type: 'CC',
    document_number: a.documentNumber,
    document_issue_date: a.documentIssued,
    document_issuance_country: 'Colombia',
    occupation: a.occupation,
    incomes: { monthly_incomes: a.monthlyIncome },
    expenses: { month_expenses: a.monthlyExpenses },
    total_assets: 0,
    total_liabilities: 0,
    is_pep: false,
    kyc_validations: '{}',
    identity_verification: '{}',
    supporting_documents: [],
  };
  try {
    const registered = await orThrow(
      clients.v1.registerUser({ params: { header: { 'x-integration-register': integrationId } }, body }),
    );
    const { person } = registered.data;
    return {
      userId: registered.user_id,
      status: registered.status,
      person: `${person.firstName} ${person.firstSurname}`,
    };
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) return { refused: e.message };
    throw e;
  }
}

export async function verificationLink(clients: Clients, userId: string): Promise<string | undefined> {
  const res = await clients.v1.generateKycUrl({ params: { path: { user_id: userId } } });
  if (res.response.status === 404) return undefined;
  return res.data?.url;
}
