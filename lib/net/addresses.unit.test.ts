import { describe, expect, it } from "vitest";
import { addressRefusal, classifyAddress, hostOf, isIpLiteral, parseCidr, parseIp } from "./addresses";

const publicOnly = { allowPrivate: false };
const privateAllowed = { allowPrivate: true };

describe("classifyAddress", () => {
  // [address, kind, refused even where private networks are allowed]
  it.each([
    // IPv4
    ["8.8.8.8", "public", false],
    ["1.1.1.1", "public", false],
    ["100.63.255.255", "public", false],
    ["100.128.0.0", "public", false],
    ["172.15.255.255", "public", false],
    ["172.32.0.0", "public", false],
    ["192.169.0.1", "public", false],
    ["0.0.0.0", "unspecified", false],
    ["0.1.2.3", "unspecified", false],
    ["10.1.2.3", "private", false],
    ["172.16.0.1", "private", false],
    ["172.31.255.255", "private", false],
    ["192.168.1.1", "private", false],
    ["100.64.0.1", "shared", false],
    ["100.127.255.255", "shared", false],
    ["127.0.0.1", "loopback", false],
    ["127.255.0.9", "loopback", false],
    ["169.254.169.254", "cloud metadata", true],
    ["169.254.170.2", "link-local", true],
    ["169.254.0.1", "link-local", true],
    ["100.100.100.200", "cloud metadata", true],
    ["168.63.129.16", "cloud metadata", true],
    ["168.63.129.15", "public", false],
    ["168.63.129.17", "public", false],
    ["192.0.0.8", "reserved", false],
    ["192.0.2.10", "documentation", false],
    ["192.88.99.1", "reserved", false],
    ["198.18.0.1", "reserved", false],
    ["198.51.100.7", "documentation", false],
    ["203.0.113.9", "documentation", false],
    ["224.0.0.1", "multicast", false],
    ["239.255.255.250", "multicast", false],
    ["240.0.0.1", "reserved", false],
    ["255.255.255.255", "reserved", false],
    // IPv6
    ["2606:4700:4700::1111", "public", false],
    ["2a00:1450:4001:80b::200e", "public", false],
    ["[2606:4700::1111]", "public", false],
    ["::", "unspecified", false],
    ["::1", "loopback", false],
    ["[::1]", "loopback", false],
    ["fc00::1", "private", false],
    ["fd00::1", "private", false],
    ["fec0::1", "private", false],
    ["fd00:ec2::254", "cloud metadata", true],
    ["fd00:ec2::23", "cloud metadata", true],
    ["FD00:EC2::254", "cloud metadata", true],
    ["[fd00:ec2::254]", "cloud metadata", true],
    ["fe80::1", "link-local", true],
    ["fe80::1%eth0", "link-local", true],
    ["fe80::a9fe:a9fe", "link-local", true],
    ["ff02::1", "multicast", false],
    ["2001:db8::1", "documentation", false],
    ["3fff::1", "documentation", false],
    ["100::1", "reserved", false],
    ["2001:2::1", "reserved", false],
    ["5f00::1", "reserved", false],
    ["5f00:1:2::3", "reserved", false],
    ["4000::1", "reserved", false], // outside 2000::/3, where IANA allocates public addresses
    ["64:ff9b:1::a9fe:a9fe", "reserved", true], // local-use NAT64: the IPv4 address inside cannot be told
    // IPv4-mapped ::ffff:0:0/96: exactly the IPv4 address
    ["::ffff:8.8.8.8", "public", false],
    ["::ffff:127.0.0.1", "loopback", false],
    ["[::ffff:127.0.0.1]", "loopback", false],
    ["::ffff:7f00:1", "loopback", false],
    ["::FFFF:10.0.0.1", "private", false],
    ["::ffff:169.254.169.254", "cloud metadata", true],
    ["::ffff:a9fe:a9fe", "cloud metadata", true],
    ["::ffff:168.63.129.16", "cloud metadata", true],
    // NAT64 64:ff9b::/96: exactly the IPv4 address
    ["64:ff9b::808:808", "public", false],
    ["64:ff9b::a00:1", "private", false],
    ["64:ff9b::7f00:1", "loopback", false],
    ["64:ff9b::a9fe:a9fe", "cloud metadata", true],
    ["64:ff9b::169.254.169.254", "cloud metadata", true],
    // IPv4-compatible ::/96 (deprecated): the IPv4 address's kind, reserved when it is public
    ["::169.254.169.254", "cloud metadata", true],
    ["::a9fe:a9fe", "cloud metadata", true],
    ["::127.0.0.1", "loopback", false],
    ["::10.0.0.1", "private", false],
    ["::8.8.8.8", "reserved", false],
    // IPv4-translated ::ffff:0:0:0/96 (deprecated): likewise
    ["::ffff:0:a9fe:a9fe", "cloud metadata", true],
    ["::ffff:0:169.254.169.254", "cloud metadata", true],
    ["::ffff:0:7f00:1", "loopback", false],
    ["::ffff:0:808:808", "reserved", false],
    // 6to4 2002::/16: the IPv4 address in bits 16-47
    ["2002:a9fe:a9fe::1", "cloud metadata", true],
    ["2002:7f00:1::", "loopback", false],
    ["2002:c0a8:101::1", "private", false],
    ["2002:808:808::1", "reserved", false],
    // Teredo 2001::/32: the client's IPv4 address, inverted, in the last 32 bits
    ["2001:0:4136:e378:8000:63bf:5601:5601", "cloud metadata", true], // ~a9fe:a9fe
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback", false], // ~7f00:0001
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "reserved", false], // ~0808:0808, public
    // not addresses
    ["", "invalid", true],
    ["not an address", "invalid", true],
    ["example.com", "invalid", true],
    ["1.2.3", "invalid", true],
  ])("%s is %s (always refused: %s)", (address, kind, alwaysRefused) => {
    expect(classifyAddress(address)).toEqual({ kind, alwaysRefused });
  });

  it.each([
    "http://169.254.169.254/latest/meta-data",
    "http://2852039166/",
    "http://0xa9fea9fe/",
    "http://0251.0376.0251.0376/",
    "http://169.254.43518/",
    "http://0xa9.254.0xa9.0xfe/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::169.254.169.254]/",
    "http://[::ffff:0:169.254.169.254]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[FD00:EC2::254]/",
    "http://168.63.129.16/machine?comp=goalstate",
    "http://2822734096/",
    "http://[64:ff9b::a83f:8110]/",
  ])("classifies the host of %s, however written, as cloud metadata", (url) => {
    const host = hostOf(new URL(url));
    expect(isIpLiteral(host)).toBe(true);
    expect(classifyAddress(host)).toEqual({ kind: "cloud metadata", alwaysRefused: true });
  });

  it("reads decimal, short and IPv6 forms of loopback in URLs as loopback", () => {
    for (const url of ["http://2130706433/", "http://127.1/", "http://0x7f000001/", "http://[::ffff:127.0.0.1]/", "http://[0:0:0:0:0:ffff:7f00:1]/"]) {
      expect(classifyAddress(hostOf(new URL(url))).kind, url).toBe("loopback");
    }
  });
});

describe("addressRefusal", () => {
  it("refuses every address outside the public internet when only the public internet is allowed", () => {
    for (const a of ["127.0.0.1", "10.0.0.1", "100.64.0.1", "::1", "fd00::1", "5f00::1", "::ffff:10.0.0.1", "0.0.0.0", "2001:db8::1"]) {
      expect(addressRefusal(a, publicOnly), a).toBeDefined();
    }
    expect(addressRefusal("127.0.0.1", publicOnly)).toBe("loopback");
    expect(addressRefusal("8.8.8.8", publicOnly)).toBeUndefined();
    expect(addressRefusal("64:ff9b::808:808", publicOnly)).toBeUndefined();
  });

  it("with private networks allowed opens private, loopback and shared addresses, never cloud metadata or link-local", () => {
    for (const a of ["127.0.0.1", "10.0.0.1", "192.168.1.1", "100.64.0.1", "::1", "fd00::1", "::ffff:10.0.0.1", "64:ff9b::a00:1"]) {
      expect(addressRefusal(a, privateAllowed), a).toBeUndefined();
    }
    for (const a of ["169.254.169.254", "169.254.1.1", "fd00:ec2::254", "fe80::1", "::ffff:169.254.169.254", "::169.254.169.254", "::ffff:0:a9fe:a9fe", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::", "100.100.100.200", "168.63.129.16"]) {
      expect(addressRefusal(a, privateAllowed), a).toBeDefined();
    }
    expect(addressRefusal("fd00:ec2::254", privateAllowed)).toBe("cloud metadata");
    // Azure's WireServer is in a public range: refused though public addresses are allowed.
    expect(addressRefusal("168.63.129.16", publicOnly)).toBe("cloud metadata");
    expect(addressRefusal("168.63.129.16", privateAllowed)).toBe("cloud metadata");
    expect(addressRefusal("not an address", privateAllowed)).toBe("invalid");
  });
});

const bytes = (ip: string) => {
  const b = parseIp(ip);
  return b && Array.from(b);
};

describe("parseIp", () => {
  it("parses IPv4 into 4 bytes", () => {
    expect(bytes("192.0.2.1")).toEqual([192, 0, 2, 1]);
    expect(bytes("0.0.0.0")).toEqual([0, 0, 0, 0]);
    expect(bytes("255.255.255.255")).toEqual([255, 255, 255, 255]);
  });

  it("parses IPv6, full and compressed, into 16 bytes", () => {
    expect(bytes("2001:db8:0:0:0:0:0:1")).toEqual([0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1]);
    expect(bytes("2001:db8::1")).toEqual(bytes("2001:db8:0:0:0:0:0:1"));
    expect(bytes("2001:DB8::1")).toEqual(bytes("2001:db8::1"));
    expect(bytes("::1")).toEqual([...Array(15).fill(0), 1]);
    expect(bytes("::")).toEqual(Array(16).fill(0));
    expect(bytes("fe80::")).toEqual([0xfe, 0x80, ...Array(14).fill(0)]);
    expect(bytes("1:2:3:4:5:6:7::")).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0]);
    expect(bytes("::2:3:4:5:6:7:8")).toEqual([0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(bytes("64:ff9b::192.0.2.33")).toEqual([0, 0x64, 0xff, 0x9b, ...Array(8).fill(0), 192, 0, 2, 33]);
  });

  it("turns IPv4-mapped IPv6 into the 4 bytes of the IPv4 address", () => {
    expect(bytes("::ffff:1.2.3.4")).toEqual([1, 2, 3, 4]);
    expect(bytes("::FFFF:127.0.0.1")).toEqual([127, 0, 0, 1]);
    expect(bytes("::ffff:7f00:1")).toEqual([127, 0, 0, 1]);
    expect(bytes("0:0:0:0:0:ffff:c000:0201")).toEqual([192, 0, 2, 1]);
  });

  it.each([
    "",
    "localhost",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "1.2.3.-4",
    " 1.2.3.4",
    "1.2.3.4/8",
    "1:2:3",
    "1::2::3",
    "12345::1",
    "gggg::1",
    ":1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::ffff:1.2.3.256",
    "::ffff:1.2.3",
    "fe80::1%eth0",
    "[::1]",
  ])("refuses %j", (s) => {
    expect(parseIp(s)).toBeNull();
  });

  it("refuses a :: that stands for no group at all (RFC 4291: :: is one or more zero groups)", () => {
    expect(parseIp("::1:2:3:4:5:6:7:8")).toBeNull();
    expect(parseIp("1:2:3:4:5:6:7:8::")).toBeNull();
  });
});

describe("parseCidr", () => {
  it("parses IPv4 and IPv6 ranges, and a bare address as a single-address range", () => {
    expect(parseCidr("10.0.0.0/8")).toEqual({ bytes: Uint8Array.from([10, 0, 0, 0]), prefix: 8 });
    expect(parseCidr("192.0.2.7")).toEqual({ bytes: Uint8Array.from([192, 0, 2, 7]), prefix: 32 });
    expect(parseCidr("0.0.0.0/0")?.prefix).toBe(0);
    expect(parseCidr("2001:db8::/32")).toEqual({ bytes: parseIp("2001:db8::"), prefix: 32 });
    expect(parseCidr("::1")?.prefix).toBe(128);
    expect(parseCidr("::/0")?.prefix).toBe(0);
  });

  it.each(["10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8.5", "10.0.0.0/ 8", "10.0.0.0/x", "nope/8", "/8", ""])(
    "refuses %j",
    (s) => {
      expect(parseCidr(s)).toBeNull();
    },
  );

  it("refuses a range with more than one slash", () => {
    expect(parseCidr("10.0.0.0/8/9")).toBeNull();
  });
});

