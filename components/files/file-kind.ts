// What a workspace file is, as a person reads it, from its media type (pure; server and client).
import { FileCode, FileImage, FileText, FileType, type LucideIcon } from "lucide-react";

export function fileKindLabel(mediaType: string, kind: "text" | "asset"): string {
  if (mediaType === "text/css") return "Stylesheet";
  if (mediaType.startsWith("font/") || mediaType === "application/font-woff") return "Font";
  if (mediaType.startsWith("image/")) return "Image";
  if (mediaType === "text/x-handlebars-template" || mediaType === "text/html") return "Partial";
  if (mediaType === "text/javascript") return "Script";
  if (mediaType === "application/json") return "JSON";
  return kind === "asset" ? "Uploaded file" : "Text";
}

export function fileIcon(mediaType: string): LucideIcon {
  if (mediaType === "text/css" || mediaType === "text/javascript" || mediaType === "application/json") return FileCode;
  if (mediaType.startsWith("image/")) return FileImage;
  if (mediaType.startsWith("font/")) return FileType;
  return FileText;
}
