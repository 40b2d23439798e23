import { randomBytes } from "node:crypto";
import { recordAudit } from "../audit";
import { systemCtx } from "../auth/context";
import { config } from "../config";
import { withTx } from "../db/client";
import { newId } from "../db/ids";
import { ensureDeployKey } from "../keys";
import { hashPassword } from "../users/password";
import * as userRepo from "../users/repository";
import * as repo from "./repository";
import { toWorkspace, type Workspace } from ".";

export type BootstrapResult = {
  workspace: Workspace;
  created: boolean;
  ownerEmail?: string;
  /** Only when generated now; printed once and never stored in clear. */
  generatedPassword?: string;
};

/**
 * First start with an empty database: creates workspace Default and its owner (ADMIN_EMAIL,
 * ADMIN_PASSWORD or a generated password). Later starts change nothing. Also installs
 * DEPLOY_API_KEY in the first workspace when it is set.
 */
export async function bootstrap(): Promise<BootstrapResult> {
  const cfg = config();
  const generated = cfg.ADMIN_PASSWORD ? undefined : randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(cfg.ADMIN_PASSWORD ?? generated!);
  const result = await withTx(async (tx): Promise<BootstrapResult> => {
    // why: two processes starting together on an empty database must create one Default, not two.
    await repo.lockBootstrap(tx);
    const [first] = await repo.listWorkspaces(tx);
    if (first) return { workspace: toWorkspace(first), created: false };
    const w = await repo.insertWorkspace(tx, { id: newId("ws"), name: "Default" });
    const ctx = systemCtx(w.id, "bootstrap");
    await recordAudit(tx, ctx, "workspace.create", { type: "workspace", id: w.id }, { name: w.name });
    const email = cfg.ADMIN_EMAIL.toLowerCase();
    let user = await userRepo.findUserByEmail(tx, email);
    user ??= await userRepo.insertUser(tx, { id: newId("usr"), email, passwordHash, platformAdmin: true });
    await userRepo.insertMembership(tx, { workspaceId: w.id, userId: user.id, role: "owner" });
    await recordAudit(tx, ctx, "user.create", { type: "user", id: user.id }, { email, role: "owner", platformAdmin: true });
    return { workspace: toWorkspace(w), created: true, ownerEmail: email, generatedPassword: generated };
  });
  if (cfg.DEPLOY_API_KEY) await ensureDeployKey(systemCtx(result.workspace.id, "deploy-key"), cfg.DEPLOY_API_KEY);
  return result;
}
