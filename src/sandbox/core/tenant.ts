// A tenant: one client of the sandbox (a business with its own credentials, users and records).
export interface Tenant {
  id: string;
  name: string;
}
