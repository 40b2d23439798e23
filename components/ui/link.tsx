// Link: next/link without fetching pages ahead. why: every console page shows the side bar's dozen links (and
// tables their rows' links), and Next.js prefetched each one in view as the page loaded, twice: 26 requests to the
// server per page view, each running the console's layout with its session and workspace lookups. The console's
// pages are dynamic, so a prefetch held only their layout and a click fetched the page again anyway; fetching on
// hover instead made three requests per click where one does. A link that should prefetch says prefetch={true}.
// eslint-disable-next-line no-restricted-imports -- the one place that imports it
import NextLink from "next/link";
import type { ComponentProps } from "react";

export default function Link({ prefetch = false, ...props }: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={prefetch} {...props} />;
}
