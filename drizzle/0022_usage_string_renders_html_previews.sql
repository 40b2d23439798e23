ALTER TABLE "usage_days" ADD COLUMN "string_renders" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_days" ADD COLUMN "html_previews" integer DEFAULT 0 NOT NULL;