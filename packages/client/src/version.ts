/** This package's version (package.json's; a unit test keeps the two equal). */
export const VERSION = "0.1.0";
