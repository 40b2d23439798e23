/** Errors about one value of the caller's data, shared by expansion and formats. */
import { AppError } from "../errors";

/** A data-derived string, shortened and quoted for an error message. */
export function quote(s: string): string {
  return JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);
}

/** 400 about one data value: "Value at customer.address.city is null, ..."; details name the path. */
export function badValue(path: string, message: string): AppError {
  return new AppError("BAD_REQUEST", `Value at ${path} ${message}`, { details: [{ path, message }] });
}
