-- A render's fair turn (docs/architecture.md, Fair turns), read after its admission took the
-- workspace's lock. why a function: a statement's own subqueries read the snapshot taken when the
-- statement began, before the lock inside folio_admit_renders was granted, so renders a workspace
-- queued at the same moment did not see each other and took the same turn, letting one
-- workspace's simultaneous renders run before another's first. Each query of a volatile plpgsql
-- function reads a snapshot of its own, taken when it runs: after the lock, so it sees every render
-- that the lock's previous holder queued.
CREATE OR REPLACE FUNCTION folio_next_turn(ws text)
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  t bigint;
BEGIN
  SELECT greatest(
    coalesce((SELECT max(turn) + 1 FROM renders WHERE workspace_id = ws AND state = 'queued'), 0),
    coalesce((SELECT turn FROM renders WHERE state = 'queued' ORDER BY turn, created_at, id LIMIT 1), 0))
  INTO t;
  RETURN t;
END $$;
