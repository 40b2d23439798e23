DROP INDEX "renders_queued_idx";--> statement-breakpoint
ALTER TABLE "renders" ADD COLUMN "turn" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "renders_workspace_turn_idx" ON "renders" USING btree ("workspace_id","turn") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "renders_queued_idx" ON "renders" USING btree ("turn","created_at","id") WHERE state = 'queued';