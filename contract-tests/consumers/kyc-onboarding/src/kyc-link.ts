// Hands a registered user their identity-verification link.
import { v1 } from './register.js';

export async function kycLink(userId: string): Promise<string | null> {
  const { data, response } = await v1.generateKycUrl({ params: { path: { user_id: userId } } });
  switch (response.status) {
    case 404:
      return null;
    default:
      return data?.url ?? null;
  }
}
