CREATE TABLE "batches" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"item_count" integer NOT NULL,
	"request_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "plan" text;--> statement-breakpoint
ALTER TABLE "renders" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "renders" ADD COLUMN "batch_index" integer;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batches_workspace_created_idx" ON "batches" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "renders_batch_idx" ON "renders" USING btree ("batch_id","batch_index") WHERE batch_id is not null;--> statement-breakpoint
CREATE INDEX "renders_active_idx" ON "renders" USING btree ("workspace_id","test") WHERE state in ('queued', 'processing');