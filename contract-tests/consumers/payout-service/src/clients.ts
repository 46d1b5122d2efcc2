// The service's clients, configured from the environment.
import { createBusinessClient } from 'ramp-api/business';
import { createV1Client } from 'ramp-api/v1';

const baseUrl = process.env.RAMP_BASE_URL ?? 'http://127.0.0.1:4010';

export const v1 = createV1Client({ baseUrl, auth: { token: process.env.RAMP_V1_TOKEN ?? '' } });
export const business = createBusinessClient({ baseUrl, auth: { token: process.env.RAMP_BUSINESS_TOKEN ?? '' } });
