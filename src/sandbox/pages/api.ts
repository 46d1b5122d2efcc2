// The pages' client of the control API: every call goes to an operation of openapi/sandbox/ by its
// operationId, with the path from the generated operation table (src/client/generated/sandbox-meta.ts). The admin
// token, when the sandbox has one, is kept for this browser tab only (sessionStorage).
import { render, type VNode } from 'preact';
import { type sandboxComponents as components, sandboxOperations } from 'ramp-api/sandbox';

export type Schemas = components['schemas'];
export type OperationId = keyof typeof sandboxOperations;

const TOKEN_KEY = 'ramp-sandbox-admin-token';

export const adminToken = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** A refusal of the control API: its status, and its `{ error, message }`. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CallInit {
  path?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** Calls `operationId`; the answer's body, or a ControlError with the refusal's message. */
export async function call<T>(operationId: OperationId, init: CallInit = {}): Promise<T> {
  const { method, path } = sandboxOperations[operationId];
  let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(init.path?.[name] ?? ''));
  const query = new URLSearchParams(
    Object.entries(init.query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  if ([...query].length) url += `?${query}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = adminToken.get();
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: method.toUpperCase(),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok)
    throw new ControlError(
      response.status,
      String(body?.error ?? 'error'),
      String(body?.message ?? `${operationId} answered HTTP ${response.status}.`),
    );
  return body as T;
}

/** The last segment of this page's path: the link's ID on the KYC and checkout pages. */
export const linkId = () => decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1) ?? '');

const money = new Intl.NumberFormat('es-CO', { maximumFractionDigits: 6 });
export const amount = (value: number, unit: string) => `${money.format(value)} ${unit}`;

/** A sandbox time, shown in UTC with milliseconds (the timeline's attempts are milliseconds apart). */
export const time = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;
export const clockTime = (iso: string) => iso.slice(11, 23);

/** Renders a page into #app in place of its "Loading…" placeholder. */
export function mount(page: VNode): void {
  const app = document.getElementById('app')!;
  app.replaceChildren();
  render(page, app);
}
