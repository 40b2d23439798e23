-- XLSX output (workbook templates: the Reports API and previews as xlsx) creates no render but
-- counts toward documentsPerMonth once it succeeds (spec: Limits > Monthly documents), and is
-- refused while the workspace is full. Counted here per workspace and UTC month, read beside the
-- renders by folio_admit_renders, the render limits record and folio_admit_xlsx.
CREATE TABLE "xlsx_documents" (
	"workspace_id" text NOT NULL,
	"month" date NOT NULL,
	"documents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "xlsx_documents_workspace_id_month_pk" PRIMARY KEY("workspace_id","month")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION folio_admit_renders(ws text, want_normal integer, want_test integer, hosted boolean)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  w record;
  max_active integer;
  per_minute integer;
  n integer;
  oldest timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('folio.admission:' || ws, 0));
  SELECT suspended, plan, max_active_renders, renders_per_minute, documents_per_month, test_renders_per_day
    INTO w FROM workspaces WHERE id = ws;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('code', 'NOT_FOUND', 'message', 'No such workspace');
  END IF;
  IF w.suspended THEN
    RETURN jsonb_build_object('code', 'FORBIDDEN', 'message', 'This workspace is suspended; renders are refused until a platform administrator reactivates it');
  END IF;
  max_active := w.max_active_renders;
  per_minute := w.renders_per_minute;
  -- Hosted plans set the floor of the allowances; a platform administrator may raise them above it.
  IF hosted AND w.plan IS NOT NULL THEN
    max_active := greatest(max_active, CASE w.plan WHEN 'free' THEN 10 WHEN 'starter' THEN 30 WHEN 'pro' THEN 50 WHEN 'business' THEN 100 ELSE 0 END);
    per_minute := greatest(per_minute, CASE w.plan WHEN 'free' THEN 60 WHEN 'starter' THEN 120 WHEN 'pro' THEN 300 WHEN 'business' THEN 1000 ELSE 0 END);
  END IF;

  IF want_normal > 0 THEN
    IF want_normal > max_active THEN
      RETURN jsonb_build_object('code', 'LIMIT_EXCEEDED', 'message', format('%s renders exceed the workspace''s maxActiveRenders allowance of %s', want_normal, max_active));
    END IF;
    IF want_normal > per_minute THEN
      RETURN jsonb_build_object('code', 'LIMIT_EXCEEDED', 'message', format('%s renders exceed the workspace''s rendersPerMinute allowance of %s', want_normal, per_minute));
    END IF;
    IF w.documents_per_month IS NOT NULL THEN
      -- One statement, one snapshot: a render retention moves into retired_documents is counted once.
      SELECT (SELECT count(*) FROM renders
          WHERE workspace_id = ws AND NOT renders.test AND state IN ('queued', 'processing', 'succeeded')
            AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
        + coalesce((SELECT documents FROM retired_documents
          WHERE workspace_id = ws AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)
        + coalesce((SELECT documents FROM xlsx_documents
          WHERE workspace_id = ws AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)
        INTO n;
      IF n + want_normal > w.documents_per_month THEN
        RETURN jsonb_build_object('code', 'QUOTA_EXCEEDED', 'message', format('The workspace''s documentsPerMonth allowance of %s is used up (%s this month); it restarts on the 1st (UTC)', w.documents_per_month, n));
      END IF;
    END IF;
    SELECT count(*) INTO n FROM renders WHERE workspace_id = ws AND NOT renders.test AND state IN ('queued', 'processing');
    IF n + want_normal > max_active THEN
      RETURN jsonb_build_object('code', 'RATE_LIMITED', 'retryAfter', 1, 'message', format('The workspace has %s of its %s maxActiveRenders queued or processing; retry when one ends', n, max_active));
    END IF;
    SELECT count(*) INTO n FROM (SELECT 1 FROM renders WHERE workspace_id = ws AND NOT renders.test AND created_at > now() - interval '60 seconds' LIMIT per_minute) s;
    IF n + want_normal > per_minute THEN
      SELECT created_at INTO oldest FROM renders WHERE workspace_id = ws AND NOT renders.test AND created_at > now() - interval '60 seconds'
        ORDER BY created_at OFFSET n + want_normal - per_minute - 1 LIMIT 1;
      RETURN jsonb_build_object('code', 'RATE_LIMITED', 'retryAfter', least(60, greatest(1, ceil(extract(epoch FROM oldest + interval '60 seconds' - clock_timestamp()))::integer)),
        'message', format('The workspace created %s renders in the last 60 seconds, its rendersPerMinute allowance is %s', n, per_minute));
    END IF;
  END IF;

  IF want_test > 0 THEN
    max_active := least(10, max_active);
    per_minute := least(10, per_minute);
    IF want_test > max_active THEN
      RETURN jsonb_build_object('code', 'LIMIT_EXCEEDED', 'message', format('%s test renders exceed the test allowance of %s at once', want_test, max_active));
    END IF;
    IF want_test > per_minute THEN
      RETURN jsonb_build_object('code', 'LIMIT_EXCEEDED', 'message', format('%s test renders exceed the test allowance of %s a minute', want_test, per_minute));
    END IF;
    IF w.test_renders_per_day IS NOT NULL THEN
      SELECT count(*) INTO n FROM renders
        WHERE workspace_id = ws AND renders.test AND renders.source <> 'editorPreview' AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
      IF n + want_test > w.test_renders_per_day THEN
        RETURN jsonb_build_object('code', 'QUOTA_EXCEEDED', 'message', format('The workspace''s testRendersPerDay allowance of %s is used up; it restarts at 00:00 UTC', w.test_renders_per_day));
      END IF;
    END IF;
    SELECT count(*) INTO n FROM renders WHERE workspace_id = ws AND renders.test AND renders.source <> 'editorPreview' AND state IN ('queued', 'processing');
    IF n + want_test > max_active THEN
      RETURN jsonb_build_object('code', 'RATE_LIMITED', 'retryAfter', 1, 'message', format('The workspace has %s of its %s test renders queued or processing; retry when one ends', n, max_active));
    END IF;
    SELECT count(*) INTO n FROM (SELECT 1 FROM renders WHERE workspace_id = ws AND renders.test AND renders.source <> 'editorPreview' AND created_at > now() - interval '60 seconds' LIMIT per_minute) s;
    IF n + want_test > per_minute THEN
      SELECT created_at INTO oldest FROM renders WHERE workspace_id = ws AND renders.test AND renders.source <> 'editorPreview' AND created_at > now() - interval '60 seconds'
        ORDER BY created_at OFFSET n + want_test - per_minute - 1 LIMIT 1;
      RETURN jsonb_build_object('code', 'RATE_LIMITED', 'retryAfter', least(60, greatest(1, ceil(extract(epoch FROM oldest + interval '60 seconds' - clock_timestamp()))::integer)),
        'message', format('The workspace created %s test renders in the last 60 seconds, the test allowance is %s a minute', n, per_minute));
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Whether one XLSX document may be made now: refused for a suspended workspace (403) and while the
-- month's documents have reached documentsPerMonth (402); null when it may. A check, not a
-- reservation: the document is counted once it succeeded (folio_count_xlsx below), so two made at
-- the same moment at the allowance's edge may both pass (docs/api.md, Workbook templates).
CREATE OR REPLACE FUNCTION folio_admit_xlsx(ws text)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  w record;
  n integer;
BEGIN
  SELECT suspended, documents_per_month INTO w FROM workspaces WHERE id = ws;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('code', 'NOT_FOUND', 'message', 'No such workspace');
  END IF;
  IF w.suspended THEN
    RETURN jsonb_build_object('code', 'FORBIDDEN', 'message', 'This workspace is suspended; reports are refused until a platform administrator reactivates it');
  END IF;
  IF w.documents_per_month IS NOT NULL THEN
    SELECT (SELECT count(*) FROM renders
        WHERE workspace_id = ws AND NOT renders.test AND state IN ('queued', 'processing', 'succeeded')
          AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
      + coalesce((SELECT documents FROM retired_documents
        WHERE workspace_id = ws AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)
      + coalesce((SELECT documents FROM xlsx_documents
        WHERE workspace_id = ws AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)
      INTO n;
    IF n >= w.documents_per_month THEN
      RETURN jsonb_build_object('code', 'QUOTA_EXCEEDED', 'message', format('The workspace''s documentsPerMonth allowance of %s is used up (%s this month); it restarts on the 1st (UTC)', w.documents_per_month, n));
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
