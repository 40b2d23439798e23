// TemplateEditor: the console's editor of one component template. Tabs over the draft
// (composition.json with root only and an image picker, page header, page footer, page settings,
// the folder's stylesheets to tick, translation files) and the sample data, a live preview, Save
// checked by revision (a conflict offers Reload or Overwrite), Publish, and the version history.
// Unsaved changes are never lost silently.
"use client";
import { useMemo, useState } from "react";
import { ConflictDialog } from "@/components/editor/conflict-dialog";
import { CodeEditor, type Problem } from "@/components/editor/lazy-code-editor";
import { useRevisionedSave } from "@/components/editor/use-revisioned-save";
import { Tabs, TabsContent } from "@/components/ui/tabs";
import { useToast } from "@/components/ui/toast";
import { PreviewLanguage } from "./preview-language";
import type { AssetUploaderProps } from "@/components/assets/asset-uploader";
import type { ActionResult } from "@/lib/console/action";
import type { ImageChoice, StylesheetChoice } from "@/lib/templates/editor-files";
import { formFields, fromTabs, parseData, sameTabs, shortPath, tabOfPath, toTabs, type CodeTab, type Content, type TabId as ContentTab, type Tabs as TabTexts, type TranslationText } from "@/lib/templates/editor-tabs";
import type { Editor } from "@/components/editor/format";
import { EditorHeading, FileTabsList, ProblemList, readOnlyNote, usePublish } from "./editor-shell";
import { ContentForm } from "./content-form";
import { ImagePicker } from "./image-picker";
import { PreviewPane, type PreviewRequest } from "./preview-pane";
import { StylesheetList } from "./stylesheet-list";
import { TranslationFiles } from "./translation-files";
import type { RenderVersionAction } from "./render-version-form";
import { VersionHistory } from "./version-history";
import { dataSchemaForEditor, useTabSchemas } from "./use-schemas";

export type EditorTemplate = {
  id: string;
  name: string;
  draft: Content;
  draftRevision: number;
  lastEditedAt?: string;
  lastEditedBy?: Editor;
  publishedVersion?: number;
  /** The template's folder from the root ("" for the root) and the stylesheets there and below. */
  folderPath: string;
  stylesheetChoices: StylesheetChoice[];
};

type TabId = ContentTab | "data";
const tabLabels: Record<TabId, string> = {
  content: "Content",
  composition: "composition.json",
  header: "Page header",
  footer: "Page footer",
  settings: "Page settings",
  stylesheets: "Stylesheets",
  translations: "Translations",
  dataSchema: "Data schema",
  contentFields: "Content fields",
  data: "Sample data",
};
const tabHints: Record<TabId, string> = {
  content: "The values of the template's content fields. Save, preview, then publish to make renders use them.",
  composition: "The root component of the layout. Reusable components are kept as they are; change them through the API. Images picks an uploaded image for an image component.",
  header: "Handlebars HTML drawn in the top margin of every page; {{pageNumber}} and {{totalPages}} work here.",
  footer: "Handlebars HTML drawn in the bottom margin of every page; {{pageNumber}} and {{totalPages}} work here.",
  settings: "Page size, margins, locale and document properties.",
  stylesheets: "Tick the stylesheets the template uses; their classes work in className.",
  translations: "One JSON file per language; the file of the render's language is the data's localization.",
  dataSchema: "A JSON Schema (2020-12 unless $schema says otherwise) of the data: renders, previews and reports check their data against it first. Sample data completes from it.",
  contentFields: "Fields content editors fill in on the template's page (type text, multilineText or image), read as content.<name>, e.g. {\"path\": [\"content\", \"headline\"]}.",
  data: "The data the preview renders with. It is kept in this browser only, not with the template.",
};
const codeTabs: readonly CodeTab[] = ["composition", "header", "footer", "settings", "dataSchema", "contentFields"];
const isCodeTab = (t: TabId): t is CodeTab => (codeTabs as readonly string[]).includes(t);

const sampleKey = (id: string) => `folio:sample-data:${id}`;

export function TemplateEditor({
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
  template: EditorTemplate;
  canWrite: boolean;
  /** Changes content field values (template:content): content editors, and everyone who can write. */
  canContent: boolean;
  canPublish: boolean;
  role: string;
  loadImages: (input: Record<string, never>) => Promise<ActionResult<ImageChoice[]>>;
  /** Registers an image upload from the image picker. */
  registerAsset?: AssetUploaderProps["register"];
  /** Where the API is reached, for the version list's ready request. */
  publicUrl: string;
  /** Makes a real render of a published version (absent when the role cannot create renders). */
  renderVersion?: RenderVersionAction;
}) {
  const toast = useToast();
  const [stored, setStored] = useState<Content>(template.draft);
  const [lastEdit, setLastEdit] = useState({ at: template.lastEditedAt, by: template.lastEditedBy });
  const [saved, setSaved] = useState<TabTexts>(() => toTabs(template.draft));
  const [tabs, setTabs] = useState<TabTexts>(saved);
  // Sample data lives in this browser, per template (not rendered on the server, so no hydration differs).
  const [dataText, setDataText] = useState(() => (typeof window === "undefined" ? "{}" : (window.localStorage.getItem(sampleKey(template.id)) ?? "{}")));
  const fields = useMemo(() => formFields(tabs.contentFields), [tabs.contentFields]);
  // Content editors land on the content form; authors on the layout.
  const [active, setActive] = useState<TabId>(() => (!canWrite && canContent ? "content" : "composition"));
  const [problems, setProblems] = useState<Partial<Record<TabId, Problem[]>>>({});
  const [serverProblems, setServerProblems] = useState<{ path?: string; message: string }[]>([]);
  // What the server's checks (the same as a save's) refused in the live preview, at their paths, while typing.
  const [previewProblems, setPreviewProblems] = useState<{ path?: string; message: string }[]>([]);
  const [historyOpen, setHistoryOpen] = useState(false);
  // The language the preview renders in: "" is the template's own (page settings).
  const [previewLocale, setPreviewLocale] = useState("");
  const schemas = useTabSchemas();
  // The sample data completes from and is checked against the data schema being edited, once it parses.
  const sampleSchema = useMemo(() => dataSchemaForEditor(tabs.dataSchema), [tabs.dataSchema]);

  const dirty = !sameTabs(tabs, saved);
  const readOnly = !canWrite;
  const canSave = canWrite || canContent;

  const changeData = (text: string) => {
    setDataText(text);
    window.localStorage.setItem(sampleKey(template.id), text);
  };

  const built = useMemo(() => fromTabs(tabs, stored), [tabs, stored]);
  const data = useMemo(() => parseData(dataText), [dataText]);
  const locales = tabs.translations.map((t) => t.locale);
  const shownLocale = locales.includes(previewLocale) ? previewLocale : "";
  const previewRequest: PreviewRequest = !built.ok
    ? { problem: built.message }
    : !data.ok
      ? { problem: data.message }
      : { content: built.content, data: data.data, ...(shownLocale ? { locale: shownLocale } : {}) };

  const draftUrl = `/v1/templates/${template.id}/draft`;
  const { revision, saving, save, conflict } = useRevisionedSave<Content>({
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
    // Overwrite: our tabs merged into the draft as it is now (its components), saved on its revision.
    overwriteContent: (draft) => {
      const mine = fromTabs(tabs, draft);
      if (!mine.ok) throw new Error(mine.message);
      return mine.content;
    },
    onSaved: (content, s) => {
      setStored(content);
      setSaved(tabs);
      setServerProblems([]);
      setLastEdit({ at: s.updatedAt, by: undefined });
    },
    onReloaded: (d) => {
      const t = toTabs(d.content);
      setStored(d.content);
      setSaved(t);
      setTabs(t);
    },
    onRefused: (e) => {
      setServerProblems(e.details ?? []);
      const first = tabOfPath(e.details?.[0]?.path);
      if (first && first !== "data") setActive(first);
    },
  });

  const { published, publishing, publish, historyKey } = usePublish(template.id, revision, template.publishedVersion);

  const setTab = (k: CodeTab) => (v: string) => setTabs((t) => (t[k] === v ? t : { ...t, [k]: v }));
  const setStylesheets = (stylesheets: string[]) => setTabs((t) => ({ ...t, stylesheets }));
  const setTranslations = (translations: TranslationText[]) => setTabs((t) => ({ ...t, translations }));
  const onProblems = (k: TabId) => (p: Problem[]) =>
    setProblems((all) => (JSON.stringify(all[k] ?? []) === JSON.stringify(p) ? all : { ...all, [k]: p }));

  const setValue = (name: string, value: string | undefined) =>
    setTabs((t) => {
      const contentValues = { ...t.contentValues };
      if (value === undefined) delete contentValues[name];
      else contentValues[name] = value;
      return { ...t, contentValues };
    });
  const valueErrors = Object.fromEntries(
    [...serverProblems, ...previewProblems].filter((p) => p.path?.replace(/^content\./, "").startsWith("contentValues.")).map((p) => [p.path!.replace(/^(content\.)?contentValues\./, ""), p.message]),
  );

  const tabIds: TabId[] = ["content", "composition", "header", "footer", "settings", "stylesheets", "translations", "dataSchema", "contentFields", "data"];
  const problemList = [
    ...(problems[active] ?? []).map((p) => ({ where: `Line ${p.line}`, message: p.message })),
    ...(!built.ok && built.tab === active && built.tab === "translations" ? [{ where: built.locale ?? "", message: built.message }] : []),
    ...[...serverProblems, ...previewProblems]
      .filter((p, i, all) => tabOfPath(p.path) === active && all.findIndex((q) => q.path === p.path && q.message === p.message) === i)
      .map((p) => ({ where: shortPath(p.path), message: p.message })),
  ];

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

      <div className="grid gap-4 lg:grid-cols-2">
        <Tabs value={active} onValueChange={(v) => setActive(v as TabId)} className="flex min-w-0 flex-col">
          <FileTabsList ids={tabIds} labels={tabLabels} hasProblem={(k) => (problems[k]?.length ?? 0) + [...serverProblems, ...previewProblems].filter((p) => tabOfPath(p.path) === k).length > 0} />
          {tabIds.map((k) => (
            <TabsContent key={k} value={k} className="flex flex-col gap-2">
              <div className="flex items-start justify-between gap-3">
                <p className="text-xs text-gray-600">{tabHints[k]}</p>
                {k === "composition" && !readOnly && (
                  <ImagePicker
                    composition={tabs.composition}
                    loadImages={loadImages}
                    register={registerAsset}
                    onPick={(text, said) => {
                      setTab("composition")(text);
                      toast.success(said);
                    }}
                  />
                )}
              </div>
              <div className="flex h-[28rem] flex-col lg:h-[calc(100vh-22rem)] lg:min-h-[24rem]">
                {k === "content" ? (
                  <div className="h-full overflow-y-auto pr-1">
                    <ContentForm fields={fields} values={tabs.contentValues} onChange={setValue} readOnly={!canSave} errors={valueErrors} loadImages={loadImages} register={registerAsset} />
                  </div>
                ) : k === "stylesheets" ? (
                  <StylesheetList choices={template.stylesheetChoices} folderPath={template.folderPath} value={tabs.stylesheets} onChange={setStylesheets} readOnly={readOnly} />
                ) : k === "translations" ? (
                  <TranslationFiles
                    value={tabs.translations}
                    onChange={setTranslations}
                    readOnly={readOnly}
                    editor={(file, onText) => (
                      <CodeEditor key={file.locale} label={`Translation ${file.locale}`} language="json" value={file.text} onChange={onText} readOnly={readOnly} onProblems={onProblems("translations")} />
                    )}
                  />
                ) : (
                  <div className="h-full overflow-hidden rounded-md border border-gray-300">
                    <CodeEditor
                      label={tabLabels[k]}
                      language={k === "header" || k === "footer" ? "text" : "json"}
                      value={k === "data" ? dataText : isCodeTab(k) ? tabs[k] : ""}
                      onChange={k === "data" ? changeData : isCodeTab(k) ? setTab(k) : () => {}}
                      schema={k === "composition" ? schemas?.composition : k === "settings" ? schemas?.settings : k === "contentFields" ? schemas?.contentFields : k === "data" ? sampleSchema : undefined}
                      readOnly={k === "data" ? false : readOnly}
                      onProblems={onProblems(k)}
                    />
                  </div>
                )}
              </div>
            </TabsContent>
          ))}
          <ProblemList tab={tabLabels[active]} problems={problemList} />
        </Tabs>
        <div className="flex h-[36rem] flex-col gap-2 lg:h-[calc(100vh-16rem)] lg:min-h-[30rem]">
          <PreviewLanguage locales={locales} templateLocale={built.ok ? (built.content.settings?.locale as string | undefined) : undefined} value={shownLocale} onChange={setPreviewLocale} />
          <div className="min-h-0 flex-1">
            <PreviewPane templateId={template.id} request={previewRequest} onProblems={setPreviewProblems} />
          </div>
        </div>
      </div>

      <ConflictDialog state={conflict} noun="template" replaced="their changes to the files shown here are replaced" />

      <VersionHistory
        key={historyKey}
        open={historyOpen}
        onOpenChange={setHistoryOpen}
        templateId={template.id}
        draft={built.ok ? built.content : stored}
        data={data.ok ? data.data : {}}
        publicUrl={publicUrl}
        renderVersion={renderVersion}
      />
    </div>
  );
}
