// Debian's Chromium for the browser tests, started headless with nothing that reaches outside the machine (no
// background networking, component updates or sync, which this machine's closed network refuses).
import { type Browser, chromium } from 'playwright-core';

/** The browser the tests drive: Debian's (`apt-get install chromium`), or CHROMIUM_PATH. Never a download. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
