// DateTime: a <time> with a short UTC text and the full one as its title.
import { formatDateTime, formatFullDateTime } from "./format";

export function DateTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={formatFullDateTime(iso)} className={className}>
      {formatDateTime(iso)}
    </time>
  );
}
