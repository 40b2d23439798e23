// CSS for the code editor: highlighting, completion and bracket matching for stylesheets.
import { css as cssLanguageSupport } from "@codemirror/lang-css";
import type { LanguageSupport } from "./code-editor";

export const css: LanguageSupport = { extensions: () => [cssLanguageSupport()] };
