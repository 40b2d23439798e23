export * from "./workspaces";
export * from "./users";
export * from "./api-keys";
export * from "./audit-events";
export * from "./idempotency-records";
export * from "./rate-limit-counters";
export * from "./renders";
export * from "./usage-days";
