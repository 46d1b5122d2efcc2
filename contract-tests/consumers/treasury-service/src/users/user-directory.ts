// Who the service's client has: its company record and its users, from both families.
import { orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';

export interface Directory {
  companyFields: string[];
  userCount: number;
  adminSections: string[];
}

export async function directory(clients: Clients, clientId: string): Promise<Directory> {
  const [info, users, admin] = await Promise.all([
    orThrow(clients.business.getClientInfo()),
    orThrow(clients.business.listClientUsers({ params: { path: { clientId } } })),
    orThrow(clients.v1.listAdminUsers()),
  ]);
  const list = Object.values(users).find(Array.isArray) as unknown[] | undefined;
  return {
    companyFields: Object.entries(info).map(([key]) => key),
    userCount: list?.length ?? 0,
    adminSections: Object.keys(admin),
  };
}

export async function adminAccounts(clients: Clients): Promise<Record<string, unknown>> {
  return { ...(await orThrow(clients.v1.listAdminAccounts())) };
}
