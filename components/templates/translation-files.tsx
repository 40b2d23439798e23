// TranslationFiles: the template editor's translation files, one JSON object per locale (add, edit,
// remove). The file of the render's language reaches the data as `localization`.
"use client";
import { Languages, Plus, Trash2 } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import { translationLocaleProblem, type TranslationText } from "@/lib/templates/editor-tabs";

export function TranslationFiles({
  value,
  onChange,
  readOnly,
  editor,
  kind = "component",
}: {
  value: TranslationText[];
  onChange: (files: TranslationText[]) => void;
  readOnly: boolean;
  /** The code editor for one file's JSON. */
  editor: (file: TranslationText, onText: (text: string) => void) => ReactNode;
  /** The template's kind, for how the empty state says to use a word: a binding, or a Handlebars expression. */
  kind?: "component" | "handlebars";
}) {
  const [selected, setSelected] = useState<string | undefined>(value[0]?.locale);
  const [locale, setLocale] = useState("");
  const [error, setError] = useState<string>();
  const current = value.find((f) => f.locale === selected) ?? value[0];

  const add = () => {
    const tag = locale.trim();
    const problem = translationLocaleProblem(tag, value.map((f) => f.locale));
    if (problem) return setError(problem);
    onChange([...value, { locale: tag, text: "{\n  \n}" }]);
    setSelected(tag);
    setLocale("");
    setError(undefined);
  };

  const remove = (tag: string) => {
    const rest = value.filter((f) => f.locale !== tag);
    onChange(rest);
    setSelected(rest[0]?.locale);
  };

  return (
    <div className="flex h-full min-h-0 flex-col gap-3">
      {!readOnly && (
        <form
          className="flex flex-wrap items-start gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <Field label="New translation's locale" error={error} className="min-w-40 flex-1">
            {(p) => <Input {...p} value={locale} onChange={(e) => setLocale(e.target.value)} placeholder="de-CH" autoComplete="off" />}
          </Field>
          {/* why the margin: the label above the input is 1.625rem high; the button lines up with the input. */}
          <Button type="submit" variant="secondary" className="mt-[1.625rem]">
            <Plus aria-hidden="true" className="size-4" /> Add translation
          </Button>
        </form>
      )}
      {value.length === 0 || !current ? (
        <div className="flex flex-col items-center rounded-lg border border-dashed border-gray-300 bg-white px-6 py-10 text-center">
          <div className="mb-3 rounded-full bg-accent-soft p-3">
            <Languages aria-hidden="true" className="size-6 text-accent" />
          </div>
          <h3 className="text-base font-semibold text-gray-900">No translation files</h3>
          <p className="mt-1 max-w-md text-sm text-gray-600">
            A translation file holds the template&apos;s words in one language. The file of the render&apos;s language reaches the data as{" "}
            <code className="font-mono text-xs">localization</code>
            {kind === "handlebars" ? (
              <>
                : write <code className="font-mono text-xs">{"{{localization.greeting}}"}</code> in template.html, a partial, the header or the footer.
              </>
            ) : (
              <>
                : bind <code className="font-mono text-xs">{'{"path": ["localization", "greeting"]}'}</code>.
              </>
            )}{" "}
            A language
            without a file of its own uses its base language&apos;s (de-AT uses de).
          </p>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div role="group" aria-label="Translation files" className="flex flex-wrap gap-1">
              {value.map((f) => (
                <button
                  key={f.locale}
                  type="button"
                  aria-pressed={f.locale === current.locale}
                  onClick={() => setSelected(f.locale)}
                  className={cn(
                    "rounded-md border px-2.5 py-1 font-mono text-xs focus-visible:outline-2 focus-visible:outline-ring",
                    f.locale === current.locale ? "border-accent bg-accent-soft text-accent" : "border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
                  )}
                >
                  {f.locale}
                </button>
              ))}
            </div>
            {!readOnly && (
              <Button variant="ghost" size="sm" onClick={() => remove(current.locale)}>
                <Trash2 aria-hidden="true" className="size-4" /> Remove {current.locale}
              </Button>
            )}
          </div>
          <div className="min-h-[16rem] flex-1 overflow-hidden rounded-md border border-gray-300">
            {editor(current, (text) => onChange(value.map((f) => (f.locale === current.locale ? { ...f, text } : f))))}
          </div>
        </>
      )}
    </div>
  );
}
