// Where the sandbox may deliver events. Link-local addresses (169.254.0.0/16, fe80::/10: cloud
// metadata services live there) are never allowed; other than that, an endpoint's address must be in one of
// the networks the sandbox was given: loopback and private networks by default, for teams whose receivers run
// there. An address written in the URL is checked at registration; a host name each time a call resolves it.
import { BlockList, isIP } from 'node:net';

/** Names for networks an `endpointNetworks` list may hold, besides CIDR blocks (`203.0.113.0/24`, `2001:db8::/32`). */
const NETWORK_NAMES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  any: [
    ['0.0.0.0', 0, 'ipv4'],
    ['::', 0, 'ipv6'],
  ],
};
export const DEFAULT_ENDPOINT_NETWORKS = ['loopback', 'private'];

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

export interface EndpointPolicy {
  /** Why a call may not go to this IP address, or null when it may. */
  refuseAddress(address: string): string | null;
  /** Why an endpoint may not be registered at `url`, or null when it may (its host name is checked when called). */
  refuseUrl(url: string): string | null;
}

/** An IPv4 address inside an IPv6 one (`::ffff:169.254.169.254`) is checked as the IPv4 address it is. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  return { address: bare, family: isIP(bare) === 6 ? 'ipv6' : 'ipv4' };
}

/** The policy for a list of network names and CIDR blocks; throws naming the first entry it cannot read. */
export function endpointPolicy(networks: string[] = DEFAULT_ENDPOINT_NETWORKS): EndpointPolicy {
  const allowed = new BlockList();
  for (const entry of networks) {
    const named = NETWORK_NAMES[entry];
    if (named) {
      for (const [net, prefix, family] of named) allowed.addSubnet(net, prefix, family);
      continue;
    }
    const m = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    const family = m ? isIP(m[1]!) : 0;
    if (!m || !family || Number(m[2]) > (family === 4 ? 32 : 128)) {
      throw new Error(
        `"${entry}" is neither ${Object.keys(NETWORK_NAMES).join(', ')} nor a CIDR block such as 203.0.113.0/24.`,
      );
    }
    allowed.addSubnet(m[1]!, Number(m[2]), family === 4 ? 'ipv4' : 'ipv6');
  }
  const described = networks.join(', ');
  const refuseAddress = (raw: string): string | null => {
    const { address, family } = plain(raw);
    if (!isIP(address)) return `${raw} is not an IP address`;
    if (LINK_LOCAL.check(address, family))
      return `${raw} is a link-local address (169.254.0.0/16, fe80::/10), where the sandbox never delivers`;
    if (!allowed.check(address, family)) return `${raw} is outside the networks endpoints may be in (${described})`;
    return null;
  };
  return {
    refuseAddress,
    refuseUrl(text) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return 'the url is not an absolute URL';
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return `the url's scheme is ${url.protocol.slice(0, -1)}; endpoints are called over http or https`;
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) return refuseAddress(host);
      if (host === 'localhost' || host.endsWith('.localhost')) return refuseAddress('127.0.0.1');
      return null;
    },
  };
}
