import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./addresses";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1", "127.1.2.3", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "192.0.2.10", "198.51.100.1", "203.0.113.9", "224.0.0.1", "255.255.255.255", "198.18.0.1",
    "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::1", "ff02::1", "2001:db8::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
    "64:ff9b::7f00:1", "not an address", "",
  ])("refuses %s", (a) => expect(isPublicAddress(a)).toBe(false));

  it.each(["8.8.8.8", "52.216.1.1", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "2a00:1450:4001::1", "::ffff:8.8.8.8", "[2606:4700::1111]"])(
    "accepts %s",
    (a) => expect(isPublicAddress(a)).toBe(true),
  );
});
