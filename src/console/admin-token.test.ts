// An admin token typed for the local sandbox is never sent to another address the console is switched to.
import { describe, expect, it } from 'vitest';
import { adminTokenFor, NO_ADMIN_TOKEN } from './admin-token.js';

describe('adminTokenFor', () => {
  const typed = { baseUrl: 'http://127.0.0.1:4020', token: 'local-admin-token-0123456789' };

  it('sends the token to the address it was typed for', () => {
    expect(adminTokenFor(typed, 'http://127.0.0.1:4020')).toBe(typed.token);
  });

  it('sends nothing to another target, however close its address', () => {
    for (const other of ['https://sandbox.team.example', 'http://127.0.0.1:4021', 'http://localhost:4020', ''])
      expect(adminTokenFor(typed, other), other).toBe('');
    expect(adminTokenFor(NO_ADMIN_TOKEN, '')).toBe('');
  });
});
