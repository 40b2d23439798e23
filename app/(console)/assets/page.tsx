import { ImageIcon } from "lucide-react";
import type { Metadata } from "next";
import { AssetUploader } from "@/components/assets/asset-uploader";
import { AssetsTable } from "@/components/assets/assets-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager, type SearchParams } from "@/components/ui/pager";
import * as assets from "@/lib/assets";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import { assetLinkAction, deleteAssetAction, registerAssetAction } from "./actions";

export const metadata: Metadata = { title: "Assets" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The workspace's uploaded files (owners, admins, members): upload with progress, preview, usage, delete. */
export default async function AssetsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/assets");
  requireScopeOrRefuse(s, "asset:manage", "manage assets");
  const params = await searchParams;
  const page = await assets.listAssets(s.ctx, { limit: 25, cursor: one(params.cursor) });
  const items = page.items.map((a) => assets.withDownloadLink(s.ctx, a));
  const useCounts = await assets.assetUseCounts(s.ctx, items.map((a) => a.id));
  return (
    <>
      <PageHeader
        title="Assets"
        description="Fonts, images, stylesheets and workbooks your templates and documents use. Caller HTML loads one at http://assets.invalid/<asset ID> when the render names it in document.assetIds."
      />
      <AssetUploader register={registerAssetAction} />
      {items.length === 0 ? (
        <EmptyState icon={ImageIcon} title="No assets yet" text="Upload a logo or your brand's fonts (above) to use them in templates and rendered documents." />
      ) : (
        <>
          <AssetsTable items={items} useCounts={useCounts} actions={{ link: assetLinkAction, remove: deleteAssetAction }} />
          <Pager basePath="/assets" searchParams={params} nextCursor={page.nextCursor} />
        </>
      )}
    </>
  );
}
