/** A handler's answer with a status other than 200. Handlers never build error responses. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export const created = (body: unknown) => new Reply(201, body);
export const accepted = (body: unknown) => new Reply(202, body);
