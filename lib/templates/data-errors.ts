/**
 * Errors about values of the caller's data, shared by expansion and formats. An expansion reports
 * every missing or mistyped value at once (one `details[]` entry per data path), up to
 * MAX_DATA_ERRORS, so a caller fixes their data in one round trip.
 */
import { AppError } from "../errors";

/** The most data errors one answer lists; past it the expansion stops (docs/api.md). */
export const MAX_DATA_ERRORS = 100;
/** How many of them the error message spells out; details[] has all. */
const MESSAGE_ERRORS = 10;

/** A data-derived string, shortened and quoted for an error message. */
export function quote(s: string): string {
  return JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);
}

/** 400 about one value of the data: the message names its path, and so do the details. */
export class DataValueError extends AppError {
  constructor(
    readonly path: string,
    readonly detail: string,
    message: string,
  ) {
    super("BAD_REQUEST", message, { details: [{ path, message: detail }] });
  }
}

/** 400 about one data value: "Value at customer.address.city is null, ..."; details name the path. */
export function badValue(path: string, message: string): DataValueError {
  return new DataValueError(path, message, `Value at ${path} ${message}`);
}

/** The data errors of one expansion: the first per path, in the order found. */
export class DataErrors {
  private readonly found = new Map<string, DataValueError>();

  /** Keeps `e`; past MAX_DATA_ERRORS distinct paths, throws what was found so far. */
  add(e: DataValueError): void {
    if (this.found.has(e.path)) return;
    if (this.found.size >= MAX_DATA_ERRORS) throw this.error(true);
    this.found.set(e.path, e);
  }

  /** Throws one 400 for everything found; a single error is answered as it is. */
  throwIfAny(): void {
    if (this.found.size === 1) throw [...this.found.values()][0]!;
    if (this.found.size > 1) throw this.error(false);
  }

  private error(more: boolean): AppError {
    const all = [...this.found.values()];
    const listed = all.slice(0, MESSAGE_ERRORS).map((e) => e.message.replace(/\.$/, ""));
    const rest = all.length - listed.length;
    const head = more
      ? `More than ${MAX_DATA_ERRORS} values of the data are missing or unusable; the first ${MAX_DATA_ERRORS} are in details`
      : `${all.length} values of the data are missing or unusable`;
    const tail = rest > 0 ? `; and ${rest} more in details` : "";
    return new AppError("BAD_REQUEST", `${head}: ${listed.join("; ")}${tail}`, {
      details: all.map((e) => ({ path: e.path, message: e.detail })),
    });
  }
}
