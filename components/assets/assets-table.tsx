// AssetsTable: the workspace's uploaded files with a thumbnail (images), kind, size, how many
// workspace files and templates use each, when it was uploaded, and the actions.
import { FileSpreadsheet, FileType, Palette } from "lucide-react";
import { DateTime } from "@/components/date-time";
import { formatBytes } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { ActionsHead } from "@/components/ui/row-actions";
import { Table, TBody, TCell, TH, THead, TRow } from "@/components/ui/table";
import type { Asset } from "@/lib/assets/schemas";
import { AssetActions, type AssetActionsProps } from "./asset-actions";

export const kindLabels: Record<Asset["kind"], string> = { image: "Image", svg: "SVG", font: "Font", stylesheet: "Stylesheet", workbook: "Workbook" };

function Thumbnail({ asset: a }: { asset: Asset }) {
  const box = "flex size-10 shrink-0 items-center justify-center overflow-hidden rounded border border-gray-200 bg-gray-50";
  if ((a.kind === "image" || a.kind === "svg") && a.downloadUrl) {
    return (
      <span className={box}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a short-lived signed link; decorative, the name follows */}
        <img src={a.downloadUrl} alt="" className="size-full object-contain" loading="lazy" />
      </span>
    );
  }
  const Icon = a.kind === "font" ? FileType : a.kind === "stylesheet" ? Palette : FileSpreadsheet;
  return (
    <span className={box}>
      {a.kind === "font" ? <span aria-hidden="true" className="font-serif text-base text-gray-700">Aa</span> : <Icon aria-hidden="true" className="size-5 text-gray-500" />}
    </span>
  );
}

const uses = (n: number) => (n === 0 ? "Unused" : n === 1 ? "1 use" : `${n} uses`);

export function AssetsTable({ items, useCounts, actions }: { items: readonly Asset[]; useCounts: ReadonlyMap<string, number>; actions: Omit<AssetActionsProps, "asset"> }) {
  return (
    <Table label="Assets">
      <THead>
        <TRow>
          <TH>Name</TH>
          <TH>Kind</TH>
          <TH>Size</TH>
          <TH>Used by</TH>
          <TH>Created</TH>
          <ActionsHead />
        </TRow>
      </THead>
      <TBody>
        {items.map((a) => (
          <TRow key={a.id}>
            <TCell>
              <div className="flex min-w-48 items-center gap-3">
                <Thumbnail asset={a} />
                <div className="min-w-0">
                  <span className="block max-w-64 truncate font-medium text-gray-900" title={a.filename}>
                    {a.filename}
                  </span>
                  <code className="font-mono text-xs whitespace-nowrap text-gray-600">{a.id}</code>
                </div>
              </div>
            </TCell>
            <TCell>
              <span className="flex flex-col items-start gap-1">
                {kindLabels[a.kind]}
                {a.state === "pending" && <Badge tone="warning">Upload pending</Badge>}
              </span>
            </TCell>
            <TCell className="whitespace-nowrap">{formatBytes(a.size)}</TCell>
            <TCell className="whitespace-nowrap">{uses(useCounts.get(a.id) ?? 0)}</TCell>
            <TCell className="whitespace-nowrap">
              <DateTime iso={a.createdAt} dateOnly />
            </TCell>
            <TCell>
              <AssetActions asset={a} {...actions} />
            </TCell>
          </TRow>
        ))}
      </TBody>
    </Table>
  );
}
