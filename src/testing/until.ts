// Test support: waits, polling every 25 ms, until `check` holds; fails naming `what` after `timeoutMs`.
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 25) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
