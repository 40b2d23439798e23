-- json keeps the text as saved (jsonb sorts keys), so an author's sample data and translations come
-- back in the author's order. Contents saved before keep the order jsonb gave them.
ALTER TABLE "template_revisions" ALTER COLUMN "content" SET DATA TYPE json USING "content"::json;--> statement-breakpoint
ALTER TABLE "template_versions" ALTER COLUMN "content" SET DATA TYPE json USING "content"::json;--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "draft" SET DATA TYPE json USING "draft"::json;
