/**
 * Jobs for lib/processes/seccomp.unit.test.ts only, loaded by a font/PDF helper beside its real
 * ones (HelperPool's `testJobs`, never in production): a call the seccomp filter denies, made by a
 * program the helper starts, which inherits the helper's filter.
 */
import { spawnSync } from "node:child_process";

export const jobs = {
  unshareUserNamespace: () => {
    const r = spawnSync("/usr/bin/unshare", ["--user", "/bin/true"], { encoding: "utf8" });
    return { status: r.status, stderr: r.stderr };
  },
};
