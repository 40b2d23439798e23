import { FileJson } from "lucide-react";
import type { Metadata } from "next";
import { GET as openapiRoute } from "@/app/v1/openapi.json/route";
import { routeModules } from "@/app/v1/openapi.json/routes";
import { ApiReference, type OpenApiDocument } from "@/components/reference/api-reference";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsole, requireSectionOrRefuse } from "@/lib/console";
import { config } from "@/lib/config";
import { buildDocument, servedDocument } from "@/lib/http/openapi/document";

export const metadata: Metadata = { title: "API reference" };

/**
 * The API reference: the OpenAPI document GET /v1/openapi.json serves (the same one, built once per
 * process), as a page. Everyone signed in may read it; the document itself needs no credential.
 */
export default async function ReferencePage() {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/reference");
  const doc = JSON.parse(servedDocument(() => buildDocument([...routeModules, { path: "/v1/openapi.json", module: { GET: openapiRoute } }], config().PUBLIC_URL)).json) as OpenApiDocument;
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every <code className="font-mono text-xs">/v1</code> endpoint of this Folio ({doc.info.title} {doc.info.version}), generated from the validators the server itself uses.
            Programs and code generators read the same document as OpenAPI 3.1.
          </>
        }
        actions={
          <a href="/v1/openapi.json" className={buttonClasses("secondary")}>
            <FileJson aria-hidden="true" className="size-4" /> openapi.json
          </a>
        }
      />
      <ApiReference doc={doc} />
    </>
  );
}
