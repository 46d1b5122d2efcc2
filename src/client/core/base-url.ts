// Validates a client's baseUrl: https, or plain http only on loopback unless the caller opts in.
import { ConfigurationError } from './errors.js';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export function checkBaseUrl(baseUrl: unknown, allowInsecureHttp = false): string {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw new ConfigurationError('`baseUrl` is required, e.g. https://api.example.co');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(`\`baseUrl\` is not an absolute URL: "${baseUrl}"`);
  }
  if (/[?#]/.test(baseUrl) || url.username || url.password) {
    throw new ConfigurationError('`baseUrl` must not carry credentials (use `auth`), a query or a fragment');
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) {
    throw new ConfigurationError(
      `\`baseUrl\`: plain http to ${url.host} would send tokens unencrypted; use https or \`allowInsecureHttp: true\``,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`\`baseUrl\` must be an http(s) address, got "${url.protocol}"`);
  }
  return baseUrl.replace(/\/+$/, '');
}
