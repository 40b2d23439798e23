ALTER TABLE "usage_days" ADD COLUMN "test_renders" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_days" ADD COLUMN "test_pages" bigint DEFAULT 0 NOT NULL;