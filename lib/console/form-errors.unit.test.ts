import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../errors";
import { CreateKeyInput } from "../keys/schemas";
import { AcceptInvitationInput, ChangePasswordInput, CreateInvitationInput, UpdateProfileInput } from "../people/schemas";
import { toActionError } from "./action";
import { formErrorsFromZod, plainDetail } from "./form-errors";

/** What a form shows for `input` refused by `schema`: the message over it and each field's line. */
function shown(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("the input was accepted");
  return toActionError(r.error);
}

describe("form errors: one voice for every console form", () => {
  it("an empty name says to enter one, whatever the schema's own wording (zod's default or the verb's)", () => {
    expect(shown(UpdateProfileInput, { name: "   " }).details).toEqual([{ path: "name", message: "Enter a name." }]);
    expect(shown(CreateKeyInput, { name: "", scopes: ["render:read"] }).details).toEqual([{ path: "name", message: "Enter a name." }]);
    expect(shown(z.strictObject({ name: z.string().trim().min(1) }), { name: "" })).toEqual({ code: "BAD_REQUEST", message: "Enter a name.", details: [{ path: "name", message: "Enter a name." }] });
  });

  it("a name over its limit says the limit", () => {
    expect(shown(UpdateProfileInput, { name: "x".repeat(201) })).toEqual({
      code: "BAD_REQUEST",
      message: "Name: use at most 200 characters.",
      details: [{ path: "name", message: "Use at most 200 characters." }],
    });
    expect(shown(CreateKeyInput, { name: "x".repeat(65), scopes: ["render:read"] }).details).toEqual([{ path: "name", message: "Use at most 64 characters." }]);
  });

  it("passwords, email addresses, choices, numbers and missing fields in plain sentences", () => {
    expect(shown(ChangePasswordInput, { currentPassword: "", newPassword: "short" }).details).toEqual([
      { path: "currentPassword", message: "Enter a current password." },
      { path: "newPassword", message: "Use at least 8 characters." },
    ]);
    expect(shown(CreateInvitationInput, { email: "not an address", role: "member" }).details).toEqual([{ path: "email", message: "Enter an email address such as ada@example.com." }]);
    expect(shown(CreateInvitationInput, { email: "a@example.com", role: "boss" }).details).toEqual([{ path: "role", message: "Choose owner, admin, member or content_editor." }]);
    expect(shown(CreateKeyInput, { name: "k", scopes: [] }).details).toEqual([{ path: "scopes", message: "Choose at least one scope." }]);
    expect(shown(z.object({ widthMm: z.coerce.number().min(10).max(5000) }), { widthMm: "5" }).details).toEqual([{ path: "widthMm", message: "Use a number of at least 10." }]);
    expect(shown(z.object({ widthMm: z.number() }), { widthMm: "wide" }).details).toEqual([{ path: "widthMm", message: "Enter a number." }]);
    expect(shown(AcceptInvitationInput, {}).details?.map((d) => d.message).every((m) => /^[A-Z].*\.$/.test(m))).toBe(true);
  });

  it("never shows the validator's own wording", () => {
    const raw = /Too (small|big)|expected|Invalid input|>=|<=/;
    const cases: [z.ZodType, unknown][] = [
      [UpdateProfileInput, { name: "" }],
      [UpdateProfileInput, {}],
      [CreateKeyInput, { name: "", scopes: "all", expiresInDays: 1.5 }],
      [ChangePasswordInput, { newPassword: 3 }],
      [z.strictObject({ url: z.url() }), { url: "nope", extra: 1 }],
    ];
    for (const [schema, input] of cases) {
      const e = shown(schema, input);
      expect(e.message).not.toMatch(raw);
      for (const d of e.details ?? []) expect(d.message).not.toMatch(raw);
    }
  });

  it("more than one problem: the message names the first and counts the rest", () => {
    expect(formErrorsFromZod(CreateKeyInput.safeParse({ name: "", scopes: [] }).error!).message).toBe("Enter a name. One more problem below.");
  });

  it("a verb's refusal with details is reworded the same way; one without keeps its message", () => {
    expect(toActionError(new AppError("BAD_REQUEST", "name: must be at most 120 characters", { details: [{ path: "name", message: "must be at most 120 characters" }] }))).toEqual({
      code: "BAD_REQUEST",
      message: "Name: use at most 120 characters.",
      details: [{ path: "name", message: "Use at most 120 characters." }],
    });
    expect(plainDetail({ path: "password", message: "is required" })).toEqual({ path: "password", message: "Enter a password." });
    expect(plainDetail({ path: "locale", message: "must be a BCP 47 tag such as de or fr-CA" })).toEqual({ path: "locale", message: "Use a BCP 47 tag such as de or fr-CA." });
    expect(plainDetail({ path: "secretAccessKey", message: "is required again when bucket changes" })).toEqual({ path: "secretAccessKey", message: "Enter a secret access key again when bucket changes." });
    expect(plainDetail({ path: "maxConcurrent", message: "must not repeat" })).toEqual({ path: "maxConcurrent", message: "Must not repeat." });
    // Another refusal's details (what holds a folder) are shown as written.
    const held = new AppError("CONFLICT", "The folder brand is not empty", { details: [{ path: "fil_1", message: "file brand/print.css (fil_1)" }] });
    expect(toActionError(held)).toEqual({ code: "CONFLICT", message: "The folder brand is not empty", details: [{ path: "fil_1", message: "file brand/print.css (fil_1)" }] });
    expect(toActionError(new AppError("CONFLICT", "A workspace needs at least one owner; make someone else an owner first"))).toEqual({
      code: "CONFLICT",
      message: "A workspace needs at least one owner; make someone else an owner first",
    });
  });
});
