import { expect } from "vitest";
import { AppError } from "../errors";

/** Runs `fn`, which must throw an AppError, and returns it for the test to inspect. */
export function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error("expected an AppError, nothing was thrown");
}
