// SearchForm: a list's search box, sent as ?q= by GET so the result has its own address. `keep`
// carries the list's other filters along. <SearchForm action="/templates" label="Search templates by name" defaultValue={q} />
import { Search } from "lucide-react";
import { useId } from "react";
import { buttonClasses } from "./button";
import { cn } from "./cn";
import { Input } from "./input";

export type SearchFormProps = {
  action: string;
  /** What the box finds, for screen readers: "Search templates by name". */
  label: string;
  defaultValue?: string;
  placeholder?: string;
  submitLabel?: string;
  keep?: Record<string, string | undefined>;
  className?: string;
};

export function SearchForm({ action, label, defaultValue, placeholder = "Search by name", submitLabel = "Search", keep = {}, className }: SearchFormProps) {
  const id = useId();
  return (
    <form role="search" method="get" action={action} className={cn("flex gap-2", className)}>
      {Object.entries(keep).map(([name, value]) => value !== undefined && <input key={name} type="hidden" name={name} value={value} />)}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative flex-1 sm:max-w-sm">
        <Search aria-hidden="true" className="pointer-events-none absolute top-3 left-3 size-4 text-gray-500" />
        <Input id={id} name="q" type="search" defaultValue={defaultValue} placeholder={placeholder} className="pl-9" maxLength={120} />
      </div>
      <button type="submit" className={buttonClasses("secondary")}>
        {submitLabel}
      </button>
    </form>
  );
}
