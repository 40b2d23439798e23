"use server";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import { imageChoices } from "@/lib/templates/editor-files";

/** The editor's image picker: the workspace's ready images, each with a fresh link to show it. */
export const imageChoicesAction = consoleAction(z.strictObject({}), (ctx) => imageChoices(ctx), { effect: "read" });
