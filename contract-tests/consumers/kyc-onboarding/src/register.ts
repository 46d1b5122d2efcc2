// Registers a user from a sign-up form: the request body is built from the form's fields at run time, so no
// type checker can tell which fields it sends.
import type { components } from 'ramp-api/v1';
import { createV1Client } from 'ramp-api/v1';

type RegisterUserRequest = components['schemas']['RegisterUserRequest'];

const v1 = createV1Client({
  baseUrl: process.env.RAMP_BASE_URL ?? 'http://127.0.0.1:4010',
  auth: { token: process.env.RAMP_V1_TOKEN ?? '' },
});

export async function registerFromForm(form: Map<string, string>): Promise<string | undefined> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of form) body[field] = value;
  const { data, response } = await v1.POST('/api/v1/users/register', {
    params: { header: { 'x-integration-register': process.env.RAMP_INTEGRATION_ID ?? '' } },
    body: body as RegisterUserRequest,
  });
  if (response.status === 422) throw new Error('The form was refused.');
  return data?.user_id;
}

export { v1 };
