/**
 * Which special-purpose range an IP address falls in (IANA registries, RFC 6890 et al.): the
 * addresses safeFetch refuses to connect to unless told otherwise.
 */
export type AddressRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'carrier-grade NAT'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

/** [first address, prefix length, range] — IANA special-purpose registries, RFC 6890 et al. */
const IPV4_RANGES: ReadonlyArray<readonly [string, number, AddressRange]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

function parseIPv4(address: string): number | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return null;
  return octets.reduce((value, octet) => value * 256 + octet, 0);
}

const IPV4_TABLE = IPV4_RANGES.map(([base, prefix, range]) => ({
  base: parseIPv4(base) ?? 0,
  size: 2 ** (32 - prefix),
  range,
}));

function classifyIPv4(value: number): AddressRange | null {
  for (const { base, size, range } of IPV4_TABLE) {
    if (value >= base && value < base + size) return range;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail is accepted). */
function parseIPv6(input: string): number[] | null {
  let address = input.replace(/^\[|\]$/g, '');
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (tail?.[1]) {
    const v4 = parseIPv4(tail[1]);
    if (v4 === null) return null;
    address = `${address.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

function classifyIPv6(groups: readonly number[]): AddressRange | null {
  const g = (i: number) => groups[i] ?? 0;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const embedded = (hi: number, lo: number) => hi * 65536 + lo;
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g(7) === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the connection goes to the IPv4 address.
  if (zeros(0, 5) && g(5) === 0xffff) return classifyIPv4(embedded(g(6), g(7)));
  // IPv4-compatible (::a.b.c.d, deprecated) — never legitimate on the Internet.
  if (zeros(0, 6)) return 'reserved';
  // NAT64 (64:ff9b::a.b.c.d) reaches the embedded IPv4 address; 64:ff9b:1::/48 is local-use.
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return classifyIPv4(embedded(g(6), g(7)));
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return 'private';
  if (g(0) === 0x100 && zeros(1, 4)) return 'reserved'; // discard-only 100::/64
  if (g(0) === 0x2001 && g(1) === 0xdb8) return 'documentation';
  if (g(0) === 0x2001 && g(1) < 0x200) return 'reserved'; // IETF protocol assignments, Teredo
  // 6to4 (2002:aabb:ccdd::) tunnels to the embedded IPv4 address.
  if (g(0) === 0x2002) return classifyIPv4(embedded(g(1), g(2)));
  if (g(0) === 0x3fff && g(1) < 0x1000) return 'documentation';
  if ((g(0) & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g(0) & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g(0) & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10 (deprecated)
  if ((g(0) & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/**
 * The special-purpose range an IP address falls in, null for a public address. Anything that is
 * not a canonical IPv4 or IPv6 address is 'reserved' (refused): DNS and the WHATWG URL parser
 * only ever produce canonical forms, so an odd form means something is trying to be clever.
 */
export function classifyAddress(address: string): AddressRange | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) return classifyIPv4(v4);
  const v6 = address.includes(':') ? parseIPv6(address) : null;
  if (v6) return classifyIPv6(v6);
  return 'reserved';
}
