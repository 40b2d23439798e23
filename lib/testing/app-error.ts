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

/** Awaits `promise`, which must reject with an AppError, and returns it for the test to inspect. */
export async function rejected(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error("expected an AppError, nothing was thrown");
}
