// DateRangeForm: a From/To pair of days sent as ?from=&to= by GET, so the range has its own address.
// `keep` carries the page's other filters along. <DateRangeForm action="/usage" from={usage.from} to={usage.to} />
import { buttonClasses } from "./button";
import { cn } from "./cn";
import { controlClasses } from "./input";

export type DateRangeFormProps = {
  action: string;
  /** The days shown now (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  fromLabel?: string;
  keep?: Record<string, string | undefined>;
  className?: string;
};

export function DateRangeForm({ action, from, to, fromLabel = "From", keep = {}, className }: DateRangeFormProps) {
  return (
    <form method="get" action={action} className={cn("flex flex-wrap items-end gap-2", className)}>
      {Object.entries(keep).map(([name, value]) => value !== undefined && <input key={name} type="hidden" name={name} value={value} />)}
      <label className="flex flex-col gap-1 text-sm text-gray-700">
        {fromLabel}
        <input type="date" name="from" defaultValue={from} className={controlClasses} />
      </label>
      <label className="flex flex-col gap-1 text-sm text-gray-700">
        To
        <input type="date" name="to" defaultValue={to} className={controlClasses} />
      </label>
      <button type="submit" className={buttonClasses("secondary")}>
        Show
      </button>
    </form>
  );
}
