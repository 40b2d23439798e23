CREATE TABLE "worker_containment" (
	"id" text PRIMARY KEY NOT NULL,
	"sandbox" boolean NOT NULL,
	"separate_user" boolean NOT NULL,
	"dumpable" boolean NOT NULL,
	"warnings" jsonb NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
