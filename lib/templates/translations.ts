/**
 * Translation files of component templates (spec: Values and bindings > translation files): one
 * JSON object per locale; the file for the render language reaches the data as `localization`.
 * Pure: the console's editor and the expansion both use it.
 */

type Data = Record<string, unknown>;

/**
 * The translation file for `lang`: the file of exactly that locale, else of each shorter form of
 * it (de-AT -> de; zh-Hant-TW -> zh-Hant -> zh), matched ignoring letter case. Files are never
 * merged: a de-CH file that lacks a key does not borrow it from de.
 */
export function translationFor(translations: Record<string, Data> | undefined, lang: string): Data | undefined {
  if (!translations) return undefined;
  const byTag = new Map(Object.entries(translations).map(([tag, file]) => [tag.toLowerCase(), file]));
  let tag = lang.toLowerCase();
  for (;;) {
    const file = byTag.get(tag);
    if (file) return file;
    const cut = tag.lastIndexOf("-");
    if (cut < 0) return undefined;
    tag = tag.slice(0, cut);
  }
}

/**
 * The data a template renders with: the caller's data plus the translation file for the render
 * language as `localization`, unless the data already has that key (the caller's value wins).
 */
export function localizedData(translations: Record<string, Data> | undefined, data: Data, lang: string): Data {
  if (Object.hasOwn(data, "localization")) return data;
  const file = translationFor(translations, lang);
  return file ? { ...data, localization: file } : data;
}
