// The pages `npm start` serves show the addresses it really started: the site is built once with the sandbox's
// documented address (its description's server, which the samples and guides give), and each HTML page is
// served with the address of the sandbox running now in its place, so that a copied sample calls that sandbox
// and never whatever else answers on the documented port.
import { defaultBaseUrl } from './samples.js';

/** A page's text with the documented sandbox address replaced by the live one (the same when none runs). */
export function withLiveAddresses(text: string, live: string | undefined, documented = defaultBaseUrl()): string {
  return live && live !== documented ? text.split(documented).join(live) : text;
}
