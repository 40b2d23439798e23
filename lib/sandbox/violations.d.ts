// The types of violations.js for the TypeScript that imports it (tsconfig.json reads no JavaScript;
// tsconfig.plain.json checks the file itself against its JSDoc, which says the same).

export type SchemaError = { keyword: string; keywordLocation: string; instanceLocation: string; error: string };
export type Violation = { path?: string; message: string };

export declare function schemaViolations(errors: readonly SchemaError[]): { details: Violation[]; more: boolean };
