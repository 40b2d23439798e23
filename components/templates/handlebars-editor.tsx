// HandlebarsEditor: the console's editor of one Handlebars template. The same layout, save checked
// by revision (a conflict offers Reload or Overwrite), Publish, versions and live preview as the
// component editor (editor-shell.tsx, preview-pane.tsx, the shared tabs), with tabs for its own
// files: template.html, partials, helpers.js, scripts, header, footer, and its sample data sets. A
// save or preview refused at a file's line (a syntax error) marks that tab and line; the console
// output of the last preview shows under it.
"use client";
import { useMemo, useState } from "react";
import { ConflictDialog } from "@/components/editor/conflict-dialog";
import { CodeEditor, type CodeLanguage, type Mark } from "@/components/editor/lazy-code-editor";
import { useRevisionedSave } from "@/components/editor/use-revisioned-save";
import type { Editor } from "@/components/editor/format";
import { Button } from "@/components/ui/button";
import { PreviewLanguage } from "./preview-language";
import { Tabs, TabsContent } from "@/components/ui/tabs";
import { useToast } from "@/components/ui/toast";
import type { AssetUploaderProps } from "@/components/assets/asset-uploader";
import type { ActionResult } from "@/lib/console/action";
import type { ImageChoice, StylesheetChoice } from "@/lib/templates/editor-files";
import { formFields, parseData, type TranslationText } from "@/lib/templates/editor-tabs";
import { hbsCompletions, type HbsSources } from "@/lib/templates/hbs-completions";
import { readableHbsError } from "@/lib/templates/hbs-problems";
import { lineOfJsonPath } from "@/lib/templates/json-text";
import { changedHbsTabs, fromHbsTabs, locateHbsProblem, revertHbsTabs, toHbsTabs, type HbsContent, type HbsFileTabId, type HbsLocation, type HbsTabId, type HbsTabs, type NamedText } from "@/lib/templates/hbs-editor-tabs";
import { ConsolePane, type ConsoleOutput } from "./console-pane";
import { ContentForm } from "./content-form";
import { EditorHeading, FileTabsList, ProblemList, readOnlyNote, usePublish } from "./editor-shell";
import { HelperRunner } from "./helper-runner";
import { NamedFiles } from "./named-files";
import { PreviewPane, type PreviewRequest } from "./preview-pane";
import { StylesheetList } from "./stylesheet-list";
import { TranslationFiles } from "./translation-files";
import type { RenderVersionAction } from "./render-version-form";
import { VersionHistory } from "./version-history";
import { dataSchemaForEditor, useTabSchemas } from "./use-schemas";

export type HandlebarsEditorTemplate = {
  id: string;
  name: string;
  draft: HbsContent;
  draftRevision: number;
  lastEditedAt?: string;
  lastEditedBy?: Editor;
  publishedVersion?: number;
  folderPath: string;
  stylesheetChoices: StylesheetChoice[];
};

const tabLabels: Record<HbsTabId, string> = {
  content: "Content",
  templateHtml: "template.html",
  partials: "Partials",
  helpers: "helpers.js",
  scripts: "Scripts",
  header: "Page header",
  footer: "Page footer",
  stylesheets: "Styles",
  settings: "Page settings",
  sampleData: "Sample data",
  translations: "Translations",
  dataSchema: "Data schema",
  contentFields: "Content fields",
};
const tabHints: Record<HbsTabId, string> = {
  content: "The values of the template's content fields, read as {{content.<name>}}. Save, preview, then publish to make renders use them.",
  templateHtml: "The body: Handlebars HTML with the data as context. {{> name}} includes a partial; helpers come from helpers.js. Inside {{ }} the data's fields, helpers and partials complete (Ctrl-Space lists them).",
  partials: "Reusable pieces of Handlebars, each called as {{> name}}.",
  helpers: "Every function declared at top level is a helper: {{money total currency=\"EUR\"}} calls money(total, options). console.log lines show under the preview; run one with arguments below.",
  scripts: "Each script defines beforeRender(data); they run in order before the template and may change the data or return new data.",
  header: "Handlebars HTML drawn in the top margin of every page; {{pageNumber}} and {{totalPages}} work here.",
  footer: "Handlebars HTML drawn in the bottom margin of every page; {{pageNumber}} and {{totalPages}} work here.",
  stylesheets: "Tick the workspace stylesheets the template uses; they come before the template's own <style>.",
  settings: "Page size, margins, locale and document properties.",
  sampleData: "Named data sets the preview renders with (the one picked here); saved with the template, never used by renders.",
  translations: "One JSON file per language; the file of the render's language is the data's localization.",
  dataSchema: "A JSON Schema of the data: renders, previews and reports check their data against it first. Sample data completes from it.",
  contentFields: "Fields content editors fill in on the Content tab (type text, multilineText or image), read as {{content.<name>}}.",
};
const singleCode = ["templateHtml", "helpers", "header", "footer", "settings", "dataSchema", "contentFields"] as const;
type SingleCode = (typeof singleCode)[number];
const isSingleCode = (t: HbsTabId): t is SingleCode => (singleCode as readonly string[]).includes(t);
const languageOf = (t: HbsTabId): CodeLanguage => (t === "helpers" || t === "scripts" ? "javascript" : t === "templateHtml" || t === "partials" || t === "header" || t === "footer" ? "handlebars" : "json");

type Located = HbsLocation & { message: string };

/** "a", "a and b", "a, b and c". */
const listOf = (words: string[]) => new Intl.ListFormat("en", { type: "conjunction" }).format(words);

export function HandlebarsEditor({
  template,
  canWrite,
  canContent,
  canPublish,
  role,
  loadImages,
  registerAsset,
  publicUrl,
  renderVersion,
}: {
  template: HandlebarsEditorTemplate;
  canWrite: boolean;
  canContent: boolean;
  canPublish: boolean;
  role: string;
  loadImages: (input: Record<string, never>) => Promise<ActionResult<ImageChoice[]>>;
  registerAsset?: AssetUploaderProps["register"];
  publicUrl: string;
  renderVersion?: RenderVersionAction;
}) {
  const toast = useToast();
  const [saved, setSaved] = useState<HbsTabs>(() => toHbsTabs(template.draft));
  const [tabs, setTabs] = useState<HbsTabs>(saved);
  const [lastEdit, setLastEdit] = useState({ at: template.lastEditedAt, by: template.lastEditedBy });
  const [active, setActive] = useState<HbsTabId>(() => (!canWrite && canContent ? "content" : "templateHtml"));
  // The file picked in each list tab; the preview renders with the picked sample data set.
  const [picked, setPicked] = useState<Partial<Record<"partials" | "scripts" | "sampleData", string>>>({});
  const [serverProblems, setServerProblems] = useState<{ path?: string; message: string }[]>([]);
  // A refused publish is of the saved draft: its problems show while the files are that draft.
  const [publishRefusal, setPublishRefusal] = useState<{ of: HbsTabs; details: { path?: string; message: string }[] } | null>(null);
  const [previewProblems, setPreviewProblems] = useState<{ path?: string; message: string }[]>([]);
  const [consoleOutput, setConsoleOutput] = useState<ConsoleOutput | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  // The language the preview renders in: "" is the template's own (page settings).
  const [previewLocale, setPreviewLocale] = useState("");
  // A save refused for the person's role (403): the message, and the tabs whose edits it refused.
  const [roleRefusal, setRoleRefusal] = useState<{ message: string; tabs: HbsFileTabId[] } | null>(null);
  const schemas = useTabSchemas();
  const sampleSchema = useMemo(() => dataSchemaForEditor(tabs.dataSchema), [tabs.dataSchema]);
  const fields = useMemo(() => formFields(tabs.contentFields), [tabs.contentFields]);

  const dirty = JSON.stringify(tabs) !== JSON.stringify(saved);
  const readOnly = !canWrite;
  const canSave = canWrite || canContent;
  const built = useMemo(() => fromHbsTabs(tabs), [tabs]);
  const sample = tabs.sampleData.find((d) => d.name === picked.sampleData) ?? tabs.sampleData[0];
  const data = useMemo(() => parseData(sample?.text ?? "{}"), [sample?.text]);
  const locales = tabs.translations.map((t) => t.locale);
  // What template.html, the partials, header and footer complete inside a mustache: the previewed
  // sample data's fields, helpers.js's helpers, the partials, translations and content fields.
  const completionSources = useMemo<HbsSources>(
    () => ({
      data: data.ok ? data.data : undefined,
      helpers: tabs.helpers,
      partials: tabs.partials.map((p) => p.name),
      translations: tabs.translations.map((t) => parseData(t.text)).flatMap((r) => (r.ok ? [r.data] : [])),
      contentFields: fields.map((f) => f.name),
    }),
    [data, tabs.helpers, tabs.partials, tabs.translations, fields],
  );
  const complete = (before: string) => hbsCompletions(before, completionSources);
  const shownLocale = locales.includes(previewLocale) ? previewLocale : "";
  // why a pointer: the problem itself is listed under its tab (and marked there), once.
  const previewRequest: PreviewRequest = !built.ok
    ? { problem: `Not rendered: ${tabLabels[built.tab]}${built.file ? ` (${built.file})` : ""} has a problem, listed under that tab.` }
    : !data.ok
      ? { problem: data.message }
      : { content: built.content, data: data.data, ...(shownLocale ? { locale: shownLocale } : {}) };

  /**
   * Where a problem is marked, in words a person reads. A preview's problem at no file is the data's
   * (the data schema's check names data paths, items.0.amount, and the whole data by none): it is
   * marked in the sample data set previewed, at the path's line.
   */
  const locate = (p: { path?: string; message: string }, fromPreview: boolean): Located | undefined => {
    const at = locateHbsProblem(p.path, p.message, tabs);
    if (fromPreview && (!at || at.tab === "data")) {
      const path = at ? (p.path ?? "").replace(/^data\.?/, "") : (p.path ?? "");
      return { tab: "data", file: sample?.name, line: sample && path ? lineOfJsonPath(sample.text, path) : undefined, message: path ? `${path}: ${p.message}` : p.message };
    }
    return at && { ...at, message: readableHbsError(p.message) };
  };
  const located: Located[] = (() => {
    const seen = new Set<string>();
    const refusedPublish = publishRefusal?.of === saved && !dirty ? publishRefusal.details : [];
    return [...serverProblems.map((p) => [p, false] as const), ...refusedPublish.map((p) => [p, false] as const), ...previewProblems.map((p) => [p, true] as const)].flatMap(([p, fromPreview]) => {
      const key = `${p.path}\u0000${p.message}`;
      if (seen.has(key)) return [];
      seen.add(key);
      const at = locate(p, fromPreview);
      return at ? [at] : [];
    });
  })();
  const tabOfProblem = (l: Located): HbsTabId => (l.tab === "data" ? "sampleData" : l.tab);

  const goTo = (at: HbsLocation) => {
    const tab = at.tab === "data" ? "sampleData" : at.tab;
    setActive(tab);
    if (at.file && (tab === "partials" || tab === "scripts" || tab === "sampleData")) setPicked((p) => ({ ...p, [tab]: at.file }));
  };

  /** A refused save or publish: its problems marked at their tabs and lines, the first one opened. */
  const showRefusal = (details: { path?: string; message: string }[] | undefined, publishing = false): boolean => {
    if (publishing) setPublishRefusal({ of: saved, details: details ?? [] });
    else setServerProblems(details ?? []);
    const first = details?.[0] && locateHbsProblem(details[0].path, details[0].message, tabs);
    if (first) goTo(first);
    return !!first;
  };

  const draftUrl = `/v1/templates/${template.id}/draft`;
  const { revision, saving, save, conflict } = useRevisionedSave<HbsContent>({
    revision: template.draftRevision,
    readUrl: draftUrl,
    saveUrl: draftUrl,
    revisionKey: "draftRevision",
    noun: "template",
    canWrite: canSave,
    dirty,
    content: () => {
      if (built.ok) return built.content;
      setActive(built.tab);
      toast.error("Not saved", built.message);
    },
    // Overwrite: every file is shown here, so our content replaces theirs as a whole.
    overwriteContent: () => {
      if (!built.ok) throw new Error(built.message);
      return built.content;
    },
    onSaved: (_content, s) => {
      setSaved(tabs);
      setServerProblems([]);
      setRoleRefusal(null);
      setLastEdit({ at: s.updatedAt, by: undefined });
    },
    onReloaded: (d) => {
      const t = toHbsTabs(d.content);
      setSaved(t);
      setTabs(t);
    },
    onRefused: (e) => {
      void showRefusal(e.details);
      // why: edits the role may not save would make every later save fail too; say which, and offer to revert them.
      const refused = e.code === "FORBIDDEN" ? changedHbsTabs(saved, tabs) : [];
      setRoleRefusal(refused.length ? { message: e.message, tabs: refused } : null);
    },
  });
  // The refused edits still here (a tab edited back to its saved text drops out).
  const stillRefused = roleRefusal ? roleRefusal.tabs.filter((k) => changedHbsTabs(saved, tabs).includes(k)) : [];
  const revertRefused = () => {
    setTabs((t) => revertHbsTabs(t, saved, stillRefused));
    setServerProblems((all) => all.filter((p) => !stillRefused.some((k) => locateHbsProblem(p.path, p.message, tabs)?.tab === k)));
    setRoleRefusal(null);
  };
  const { published, publishing, publish, historyKey } = usePublish(template.id, revision, template.publishedVersion, (e) => showRefusal(e.details, true));

  const setCode = (k: SingleCode) => (v: string) => setTabs((t) => (t[k] === v ? t : { ...t, [k]: v }));
  const setList = (k: "partials" | "scripts" | "sampleData") => (files: NamedText[]) => setTabs((t) => ({ ...t, [k]: files }));
  const setValue = (name: string, value: string | undefined) =>
    setTabs((t) => {
      const contentValues = { ...t.contentValues };
      if (value === undefined) delete contentValues[name];
      else contentValues[name] = value;
      return { ...t, contentValues };
    });
  const valueErrors = Object.fromEntries([...serverProblems, ...previewProblems].filter((p) => p.path?.replace(/^content\./, "").startsWith("contentValues.")).map((p) => [p.path!.replace(/^(content\.)?contentValues\./, ""), p.message]));

  const marksOf = (tab: HbsTabId, file?: string): Mark[] => located.filter((l) => tabOfProblem(l) === tab && l.line !== undefined && (file === undefined || l.file === file)).map((l) => ({ line: l.line!, message: l.message }));
  const problemList = [
    ...(!built.ok && built.tab === active ? [{ where: built.file ?? "", message: built.message }] : []),
    ...located.filter((l) => tabOfProblem(l) === active).map((l) => ({ where: [l.file, l.line !== undefined ? `line ${l.line}` : ""].filter(Boolean).join(", "), message: l.message })),
  ];
  /** A refused preview whose every problem is marked at its tab: the pane says where, not the same words again. */
  const explainFailure = (details: { path?: string; message: string }[]): string | undefined => {
    const at = details.flatMap((d) => locate(d, true) ?? []);
    if (!details.length || at.length < details.length) return undefined;
    const where = [...new Set(at.map((l) => [tabOfProblem(l) === "sampleData" ? `Sample data ${l.file ?? ""}`.trim() : l.file ? `${tabLabels[tabOfProblem(l)]} ${l.file}` : tabLabels[tabOfProblem(l)], l.line !== undefined ? `line ${l.line}` : ""].filter(Boolean).join(", ")))];
    return `Not rendered: see the ${at.length === 1 ? "problem" : "problems"} marked in ${new Intl.ListFormat("en", { type: "conjunction" }).format(where)}.`;
  };
  const hasProblem = (k: HbsTabId) => located.some((l) => tabOfProblem(l) === k) || (!built.ok && built.tab === k);

  const tabIds: HbsTabId[] = [...(canContent ? (["content"] as const) : []), "templateHtml", "partials", "helpers", "scripts", "header", "footer", "stylesheets", "settings", "sampleData", "translations", "dataSchema", "contentFields"];
  const code = (k: HbsTabId, label: string, value: string, onChange: (v: string) => void, file?: string, editable = !readOnly) => (
    <CodeEditor
      key={`${k}:${file ?? ""}`}
      label={label}
      language={languageOf(k)}
      value={value}
      onChange={onChange}
      readOnly={!editable}
      marks={marksOf(k, file)}
      complete={languageOf(k) === "handlebars" ? complete : undefined}
      schema={k === "settings" ? schemas?.settings : k === "contentFields" ? schemas?.contentFields : k === "sampleData" ? sampleSchema : undefined}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      <EditorHeading
        name={template.name}
        revision={revision}
        published={published}
        dirty={dirty}
        lastEdit={lastEdit}
        canPublish={canPublish}
        canSave={canSave}
        publishing={publishing}
        onPublish={() => void publish()}
        saving={saving}
        onSave={save}
        onVersions={() => setHistoryOpen(true)}
        readOnlyNote={readOnly ? readOnlyNote(role, canContent) : undefined}
      />

      {roleRefusal && stillRefused.length > 0 && (
        <div role="alert" className="flex flex-col gap-3 rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-gray-900 sm:flex-row sm:items-center sm:justify-between">
          <p className="min-w-0 [overflow-wrap:anywhere]">
            <strong className="font-semibold">Not saved: your role cannot change {listOf(stillRefused.map((k) => tabLabels[k]))}.</strong> {roleRefusal.message}. Revert those edits to save the rest.
          </p>
          <Button variant="secondary" size="sm" onClick={revertRefused}>
            Revert changes to {listOf(stillRefused.map((k) => tabLabels[k]))}
          </Button>
        </div>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <Tabs value={active} onValueChange={(v) => setActive(v as HbsTabId)} className="flex min-w-0 flex-col">
          <FileTabsList ids={tabIds} labels={tabLabels} hasProblem={hasProblem} />
          {tabIds.map((k) => (
            <TabsContent key={k} value={k} className="flex flex-col gap-2">
              <p className="text-xs text-gray-600">
                {tabHints[k]}
                {k === "sampleData" && readOnly ? " Your role can pick the set to preview with, not change the sets." : ""}
              </p>
              <div className="flex h-[28rem] flex-col lg:h-[calc(100vh-22rem)] lg:min-h-[24rem]">
                {k === "content" ? (
                  <div className="h-full overflow-y-auto pr-1">
                    <ContentForm fields={fields} values={tabs.contentValues} onChange={setValue} readOnly={!canSave} errors={valueErrors} loadImages={loadImages} register={registerAsset} />
                  </div>
                ) : k === "stylesheets" ? (
                  <StylesheetList choices={template.stylesheetChoices} folderPath={template.folderPath} value={tabs.stylesheets} onChange={(stylesheets) => setTabs((t) => ({ ...t, stylesheets }))} readOnly={readOnly} />
                ) : k === "translations" ? (
                  <TranslationFiles
                    value={tabs.translations}
                    onChange={(translations: TranslationText[]) => setTabs((t) => ({ ...t, translations }))}
                    readOnly={readOnly}
                    kind="handlebars"
                    editor={(file, onText) => code("translations", `Translation ${file.locale}`, file.text, onText, file.locale)}
                  />
                ) : k === "partials" || k === "scripts" || k === "sampleData" ? (
                  <NamedFiles
                    kind={k}
                    noun={k === "partials" ? "partial" : k === "scripts" ? "script" : "sample data set"}
                    value={tabs[k]}
                    onChange={setList(k)}
                    selected={picked[k]}
                    onSelect={(name) => setPicked((p) => ({ ...p, [k]: name }))}
                    // why: sample data is saved with the template, which a content editor may not change (the server
                    // refuses it, spec: Roles); they still pick the set the preview renders with.
                    readOnly={readOnly}
                    newText={k === "partials" ? "<p>{{name}}</p>" : k === "scripts" ? "function beforeRender(data) {\n  \n}" : "{\n  \n}"}
                    problemNames={located.filter((l) => tabOfProblem(l) === k && l.file).map((l) => l.file!)}
                    empty={
                      k === "partials"
                        ? "No partials. Add one and include it in the template as {{> name}}."
                        : k === "scripts"
                          ? "No scripts. A script's beforeRender(data) prepares the data before the template runs."
                          : "No sample data sets: the preview renders with {}. Add one to see the template with data."
                    }
                    editor={(file, onText) => code(k, `${k === "partials" ? "Partial" : k === "scripts" ? "Script" : "Sample data"} ${file.name}`, file.text, onText, file.name)}
                  />
                ) : isSingleCode(k) ? (
                  <div className="h-full overflow-hidden rounded-md border border-gray-300">{code(k, tabLabels[k], tabs[k], setCode(k))}</div>
                ) : null}
              </div>
              {k === "helpers" && (
                <HelperRunner
                  templateId={template.id}
                  helpers={tabs.helpers}
                  content={built.ok ? { ok: true, content: built.content } : { ok: false, message: `Not run: ${tabLabels[built.tab]}${built.file ? ` (${built.file})` : ""} has a problem, listed under that tab.` }}
                  data={data}
                  onConsole={setConsoleOutput}
                />
              )}
            </TabsContent>
          ))}
          <ProblemList tab={tabLabels[active]} problems={problemList} />
        </Tabs>
        <div className="flex flex-col gap-2">
          <PreviewLanguage locales={locales} templateLocale={built.ok ? (built.content.settings?.locale as string | undefined) : undefined} value={shownLocale} onChange={setPreviewLocale} />
          <div className="flex h-[30rem] flex-col lg:h-[calc(100vh-30rem)] lg:min-h-[24rem]">
            <PreviewPane templateId={template.id} request={previewRequest} onProblems={setPreviewProblems} onConsole={setConsoleOutput} explain={explainFailure} />
          </div>
          <ConsolePane output={consoleOutput} />
        </div>
      </div>

      <ConflictDialog state={conflict} noun="template" replaced="their changes to the files shown here are replaced" />

      <VersionHistory
        key={historyKey}
        open={historyOpen}
        onOpenChange={setHistoryOpen}
        templateId={template.id}
        draft={built.ok ? built.content : template.draft}
        data={data.ok ? data.data : {}}
        publicUrl={publicUrl}
        renderVersion={renderVersion}
      />
    </div>
  );
}
