/**
 * Style objects of component templates as CSS declarations (spec: Common component fields > style):
 * camelCase names to CSS names, numbers to pixels where CSS needs a unit.
 */
import type { Style } from "./schema";

/** Properties whose numbers are not lengths (as React's list, camelCase without vendor prefix). */
const UNITLESS = new Set([
  "animationIterationCount", "aspectRatio", "borderImageOutset", "borderImageSlice", "borderImageWidth",
  "columnCount", "columns", "fillOpacity", "flex", "flexGrow", "flexShrink", "floodOpacity", "fontWeight",
  "gridArea", "gridColumn", "gridColumnEnd", "gridColumnStart", "gridRow", "gridRowEnd", "gridRowStart",
  "lineClamp", "lineHeight", "opacity", "order", "orphans", "scale", "stopOpacity", "strokeDasharray",
  "strokeDashoffset", "strokeMiterlimit", "strokeOpacity", "strokeWidth", "tabSize", "widows", "zIndex", "zoom",
]);

/** camelCase to the CSS name: fontSize -> font-size, WebkitLineClamp -> -webkit-line-clamp, msX -> -ms-x. */
function cssName(property: string): string {
  if (property.startsWith("--")) return property;
  const name = property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return name.startsWith("ms-") ? `-${name}` : name;
}

/** The property without its vendor prefix, for the unitless lookup: WebkitLineClamp -> lineClamp. */
function unprefixed(property: string): string {
  const m = /^(?:Webkit|Moz|ms|O)([A-Z].*)$/.exec(property);
  return m?.[1] ? m[1].charAt(0).toLowerCase() + m[1].slice(1) : property;
}

/**
 * A style object as CSS declarations: "font-size:12px;color:red". Numbers are CSS pixels except on
 * unitless properties and custom properties (which take a number as written). The values were
 * checked by the schema (no `;`, braces, `<`, comments); escape the result for an attribute.
 */
export function toCss(style: Style): string {
  const declarations: string[] = [];
  for (const [property, value] of Object.entries(style)) {
    const px = typeof value === "number" && !property.startsWith("--") && !UNITLESS.has(unprefixed(property));
    declarations.push(`${cssName(property)}:${value}${px ? "px" : ""}`);
  }
  return declarations.join(";");
}

/** Two declaration lists as one; the later wins where both set a property, as in CSS. */
export function joinCss(a: string, b: string): string {
  return a && b ? `${a};${b}` : a || b;
}
