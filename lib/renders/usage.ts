import { sql, type SQL } from "drizzle-orm";

/**
 * spec: Usage record: a render is counted once, on the UTC day it ends. The usage insert of a
 * statement that ends renders (`ended`: the renders rows it ended, as a CTE), so the count commits
 * with the end or not at all; grouped, so renders of one workspace and day add up in one row. An
 * image counts one page (its pageCount is that of the document it shows a page of). Test renders
 * count like the others, and again in test_renders and test_pages so the console can show them apart.
 */
export function countUsage(ended: SQL) {
  return sql`insert into usage_days (workspace_id, day, renders_succeeded, renders_failed, renders_cancelled, pages, output_bytes, test_renders, test_pages)
    select workspace_id, (finished_at at time zone 'UTC')::date,
      count(*) filter (where state = 'succeeded'), count(*) filter (where state = 'failed'), count(*) filter (where state = 'cancelled'),
      coalesce(sum(case when format = 'pdf' then page_count else 1 end) filter (where state = 'succeeded'), 0), coalesce(sum(output_bytes) filter (where state = 'succeeded'), 0),
      count(*) filter (where test), coalesce(sum(case when format = 'pdf' then page_count else 1 end) filter (where state = 'succeeded' and test), 0)
    from ${ended} group by 1, 2
    on conflict (workspace_id, day) do update set
      renders_succeeded = usage_days.renders_succeeded + excluded.renders_succeeded,
      renders_failed = usage_days.renders_failed + excluded.renders_failed,
      renders_cancelled = usage_days.renders_cancelled + excluded.renders_cancelled,
      pages = usage_days.pages + excluded.pages,
      output_bytes = usage_days.output_bytes + excluded.output_bytes,
      test_renders = usage_days.test_renders + excluded.test_renders,
      test_pages = usage_days.test_pages + excluded.test_pages`;
}
