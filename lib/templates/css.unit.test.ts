import { describe, expect, it } from "vitest";
import { toCss } from "./css";
import { Style } from "./schema";

describe("toCss", () => {
  it.each([
    [{ fontSize: 12, color: "red" }, "font-size:12px;color:red"],
    [{ marginTop: -4, padding: 0 }, "margin-top:-4px;padding:0px"],
    [{ width: 12.5 }, "width:12.5px"],
    [{ borderBottom: "1px solid #000" }, "border-bottom:1px solid #000"],
    [{ WebkitLineClamp: 3 }, "-webkit-line-clamp:3"],
    [{ WebkitTransform: "none", MozAppearance: "none", msFlex: 1 }, "-webkit-transform:none;-moz-appearance:none;-ms-flex:1"],
    [{ WebkitBorderRadius: 4 }, "-webkit-border-radius:4px"],
    [{ "--brand-color": "#f00", "--gap": 4 }, "--brand-color:#f00;--gap:4"],
    [{ lineHeight: 1.5, fontWeight: 600, opacity: 0.5, zIndex: 2 }, "line-height:1.5;font-weight:600;opacity:0.5;z-index:2"],
    [{ flex: 1, flexGrow: 2, flexShrink: 0, order: 3 }, "flex:1;flex-grow:2;flex-shrink:0;order:3"],
    [{ orphans: 2, widows: 2, columnCount: 3 }, "orphans:2;widows:2;column-count:3"],
    [{ lineHeight: "20px" }, "line-height:20px"],
    [{ backgroundImage: "url(data:image/svg+xml,%3Csvg/%3E)" }, "background-image:url(data:image/svg+xml,%3Csvg/%3E)"],
    [{}, ""],
  ])("%j -> %s", (style, css) => {
    expect(toCss(Style.parse(style))).toBe(css);
  });
});
