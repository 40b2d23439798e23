-- The counts were per account alone; the open windows are forgotten (a lock under way ends).
DELETE FROM "password_failures";--> statement-breakpoint
ALTER TABLE "password_failures" DROP CONSTRAINT "password_failures_pkey";--> statement-breakpoint
ALTER TABLE "password_failures" ADD COLUMN "address" text NOT NULL;--> statement-breakpoint
ALTER TABLE "password_failures" ADD CONSTRAINT "password_failures_account_address_pk" PRIMARY KEY("account","address");
