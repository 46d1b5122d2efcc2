// Orderings of the service's lists, for any record that carries the description's registration date.
import type { BusinessSchemas } from '../api/types.js';

type Registered = { registerDate: BusinessSchemas['CustodyWallet']['registerDate'] };

export function newestFirst<T extends Registered>(items: T[]): T[] {
  return [...items].sort((a, b) => Date.parse(b.registerDate) - Date.parse(a.registerDate));
}

export function newest<T extends Registered>(items: T[]): T | undefined {
  return newestFirst(items)[0];
}
