CREATE TABLE "render_inputs" (
	"render_id" text PRIMARY KEY NOT NULL,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renders" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"format" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp (3) with time zone,
	"error" jsonb,
	"page_count" integer,
	"output_bytes" bigint,
	"duration_ms" integer,
	"file_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_days" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"renders_succeeded" integer DEFAULT 0 NOT NULL,
	"renders_failed" integer DEFAULT 0 NOT NULL,
	"renders_cancelled" integer DEFAULT 0 NOT NULL,
	"pages" bigint DEFAULT 0 NOT NULL,
	"output_bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_days_workspace_id_day_pk" PRIMARY KEY("workspace_id","day")
);
--> statement-breakpoint
ALTER TABLE "render_inputs" ADD CONSTRAINT "render_inputs_render_id_renders_id_fk" FOREIGN KEY ("render_id") REFERENCES "public"."renders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renders" ADD CONSTRAINT "renders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "renders_workspace_created_idx" ON "renders" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "renders_lease_idx" ON "renders" USING btree ("lease_expires_at") WHERE state = 'processing';--> statement-breakpoint
CREATE INDEX "renders_created_idx" ON "renders" USING btree ("created_at");