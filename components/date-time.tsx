// DateTime: a <time> with a short UTC text (or only the day) and the full one as its title.
import { formatDate, formatDateTime, formatFullDateTime } from "./format";

export function DateTime({ iso, dateOnly = false, className }: { iso: string; dateOnly?: boolean; className?: string }) {
  return (
    <time dateTime={iso} title={formatFullDateTime(iso)} className={className}>
      {dateOnly ? formatDate(iso) : formatDateTime(iso)}
    </time>
  );
}
