import { z } from "zod";
import { roles, type Role } from "../db/schema";
import { Email } from "../email";

export const CreateUserInput = z.strictObject({
  email: Email,
  password: z.string().min(8).max(1024),
  name: z.string().max(200).optional(),
  role: z.enum(roles),
  platformAdmin: z.boolean().default(false),
});
export type CreateUserInput = z.input<typeof CreateUserInput>;

export type User = { id: string; email: string; name?: string; platformAdmin: boolean; workspaceId: string; role: Role };
