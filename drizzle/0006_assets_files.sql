CREATE TABLE "template_version_blobs" (
	"version_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "template_version_blobs_version_id_sha256_pk" PRIMARY KEY("version_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "asset_blobs" (
	"workspace_id" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"media_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "asset_blobs_workspace_id_sha256_pk" PRIMARY KEY("workspace_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"filename" text NOT NULL,
	"media_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"created_by_type" text NOT NULL,
	"created_by_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"uploaded_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "workspace_files" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"folder_id" text,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"content" text,
	"asset_id" text,
	"media_type" text NOT NULL,
	"size" bigint NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_by_type" text NOT NULL,
	"updated_by_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_folders" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "renders" ADD COLUMN "warnings" jsonb;--> statement-breakpoint
ALTER TABLE "template_versions" ADD COLUMN "resources" jsonb;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "folder_id" text;--> statement-breakpoint
ALTER TABLE "template_version_blobs" ADD CONSTRAINT "template_version_blobs_version_id_template_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."template_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_blobs" ADD CONSTRAINT "asset_blobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_files" ADD CONSTRAINT "workspace_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_files" ADD CONSTRAINT "workspace_files_folder_id_workspace_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."workspace_folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_files" ADD CONSTRAINT "workspace_files_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_folders" ADD CONSTRAINT "workspace_folders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_folders" ADD CONSTRAINT "workspace_folders_parent_id_workspace_folders_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."workspace_folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "template_version_blobs_blob_idx" ON "template_version_blobs" USING btree ("workspace_id","sha256");--> statement-breakpoint
CREATE INDEX "assets_workspace_created_idx" ON "assets" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "assets_workspace_sha_idx" ON "assets" USING btree ("workspace_id","sha256");--> statement-breakpoint
CREATE INDEX "assets_pending_idx" ON "assets" USING btree ("created_at") WHERE state = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_files_name_key" ON "workspace_files" USING btree ("workspace_id",coalesce("folder_id", ''),lower("name"));--> statement-breakpoint
CREATE INDEX "workspace_files_workspace_created_idx" ON "workspace_files" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "workspace_files_asset_idx" ON "workspace_files" USING btree ("asset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_folders_name_key" ON "workspace_folders" USING btree ("workspace_id",coalesce("parent_id", ''),lower("name"));--> statement-breakpoint
CREATE INDEX "workspace_folders_workspace_created_idx" ON "workspace_folders" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_folder_id_workspace_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."workspace_folders"("id") ON DELETE no action ON UPDATE no action;