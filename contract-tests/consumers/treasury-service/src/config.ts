// The service's settings, read from the environment once at start.
export interface TreasuryConfig {
  baseUrl: string;
  clientId: string;
  business: { clientId: string; clientSecret: string };
  v1: { clientId: string; clientSecret: string };
  integrationId: string;
  webhookSecret: string;
}

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set.`);
  return value;
};

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): TreasuryConfig {
  const clientId = required(env, 'RAMP_CLIENT_ID');
  return {
    baseUrl: env.RAMP_BASE_URL ?? 'http://127.0.0.1:4010',
    clientId,
    business: { clientId, clientSecret: required(env, 'RAMP_BUSINESS_SECRET') },
    v1: { clientId, clientSecret: required(env, 'RAMP_V1_SECRET') },
    integrationId: env.RAMP_INTEGRATION_ID ?? '',
    webhookSecret: env.RAMP_WEBHOOK_SECRET ?? 'a-long-random-secret-for-the-treasury',
  };
}
