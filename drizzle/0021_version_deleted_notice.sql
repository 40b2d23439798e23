-- Processes keep published versions in memory (lib/templates/version-cache.ts): versions never change,
-- but they are deleted with their template or workspace. One notice per deleting statement tells every
-- process to forget what it holds.
CREATE OR REPLACE FUNCTION folio_notify_versions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('folio_versions_deleted', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER template_versions_deleted AFTER DELETE ON template_versions FOR EACH STATEMENT EXECUTE FUNCTION folio_notify_versions_deleted();
