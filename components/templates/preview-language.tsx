// PreviewLanguage: the editors' "Preview language" select (component and Handlebars templates alike).
"use client";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

/**
 * Picks the language a preview renders in: the template's own (its page settings' locale, named in
 * `templateLocale`) or one of its translations. Shown only when the template has translations.
 */
export function PreviewLanguage({ locales, templateLocale, value, onChange }: { locales: string[]; templateLocale: string | undefined; value: string; onChange: (locale: string) => void }) {
  if (locales.length === 0) return null;
  const options = [{ value: "template", label: `The template's (${templateLocale ?? "page settings"})` }, ...locales.map((l) => ({ value: l, label: l }))];
  return (
    <Field label="Preview language" className="flex items-center justify-end gap-3 space-y-0">
      {(p) => (
        <div className="w-56">
          <Select {...p} options={options} value={value || "template"} onValueChange={(v) => onChange(v === "template" ? "" : v)} />
        </div>
      )}
    </Field>
  );
}
