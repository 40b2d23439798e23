// Handlebars HTML and JavaScript for the code editor. why small stream tokenizers of our own: no
// @codemirror/lang-html or lang-javascript is installed (only css, json and yaml), and these give
// the highlighting people need (mustaches, tags, strings, comments, keywords) without a new package.
import { StreamLanguage, type StringStream } from "@codemirror/language";
import type { LanguageSupport } from "./code-editor";

type HbsState = { inMustache: boolean; inTag: boolean; inComment: boolean };

const handlebarsLanguage = StreamLanguage.define<HbsState>({
  name: "handlebars",
  startState: () => ({ inMustache: false, inTag: false, inComment: false }),
  token(stream: StringStream, state: HbsState) {
    if (state.inComment) {
      if (stream.skipTo("-->")) {
        stream.match("-->");
        state.inComment = false;
      } else stream.skipToEnd();
      return "comment";
    }
    if (state.inMustache) {
      if (stream.match(/^~?\}\}\}?/)) {
        state.inMustache = false;
        return "keyword";
      }
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return "string";
      if (stream.match(/^-?\d+(\.\d+)?/)) return "number";
      if (stream.match(/^(?:true|false|null|undefined)\b/)) return "atom";
      if (stream.match(/^[A-Za-z_$@][\w$.\-/]*(?==)/)) return "propertyName";
      if (stream.match(/^(?:else|as|this)\b/)) return "keyword";
      if (stream.match(/^[A-Za-z_$@.][\w$.\-/]*/)) return "variableName";
      stream.next();
      return null;
    }
    if (stream.match(/^\{\{!--[\s\S]*?--\}\}/) || stream.match(/^\{\{![^}]*\}\}/)) return "comment";
    if (stream.match(/^\{\{\{?~?[#/^>&]?\s*/)) {
      state.inMustache = true;
      return "keyword";
    }
    if (stream.match("<!--")) {
      state.inComment = true;
      return "comment";
    }
    if (state.inTag) {
      if (stream.match(/^\/?>/)) {
        state.inTag = false;
        return "tagName";
      }
      if (stream.match(/^"[^"]*?(?="|\{\{|$)"?/) || stream.match(/^'[^']*?(?='|\{\{|$)'?/)) return "string";
      if (stream.match(/^[^\s=>"'{/]+/)) return "attributeName";
      stream.next();
      return null;
    }
    if (stream.match(/^<\/?[A-Za-z][\w-]*/)) {
      state.inTag = true;
      return "tagName";
    }
    stream.next();
    while (!stream.eol() && !/[<{]/.test(stream.peek() ?? "")) stream.next();
    return null;
  },
});

type JsState = { inComment: boolean };
const keywords = /^(?:async|await|break|case|catch|class|const|continue|default|delete|do|else|export|extends|finally|for|function|if|import|in|instanceof|let|new|of|return|switch|throw|try|typeof|var|void|while|yield)\b/;

const javascriptLanguage = StreamLanguage.define<JsState>({
  name: "javascript",
  startState: () => ({ inComment: false }),
  token(stream: StringStream, state: JsState) {
    if (state.inComment) {
      if (stream.skipTo("*/")) {
        stream.match("*/");
        state.inComment = false;
      } else stream.skipToEnd();
      return "comment";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("/*")) {
      state.inComment = true;
      return "comment";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/) || stream.match(/^`(?:[^`\\]|\\.)*`?/)) return "string";
    if (stream.match(/^\d[\d_]*(\.\d+)?/)) return "number";
    if (stream.match(/^(?:true|false|null|undefined|this)\b/)) return "atom";
    if (stream.match(keywords)) return "keyword";
    if (stream.match(/^[A-Za-z_$][\w$]*(?=\s*\()/)) return "variableName";
    if (stream.match(/^[A-Za-z_$][\w$]*/)) return null;
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: "//", block: { open: "/*", close: "*/" } } },
});

export const handlebars: LanguageSupport = { extensions: () => [handlebarsLanguage] };
export const javascript: LanguageSupport = { extensions: () => [javascriptLanguage] };
