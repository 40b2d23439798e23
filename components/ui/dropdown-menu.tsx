// DropdownMenu: a Radix menu styled for the console. Compose: <DropdownMenu><DropdownMenuTrigger asChild>
// <Button/></DropdownMenuTrigger><DropdownMenuContent><DropdownMenuItem onSelect=…/></DropdownMenuContent></DropdownMenu>
"use client";
import * as Menu from "@radix-ui/react-dropdown-menu";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * Not modal by default: a menu needs no focus trap, and a modal one hides the rest of the page with
 * aria-hidden while the focusable skip link and header stay in it (axe: aria-hidden-focus).
 */
export function DropdownMenu({ modal = false, ...props }: ComponentProps<typeof Menu.Root>) {
  return <Menu.Root modal={modal} {...props} />;
}
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuGroup = Menu.Group;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuContent({ className, sideOffset = 6, align = "end", ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        align={align}
        className={cn("z-50 min-w-48 rounded-md border border-gray-200 bg-white p-1 text-sm shadow-lg", className)}
        {...props}
      />
    </Menu.Portal>
  );
}

const itemClasses =
  "flex cursor-default items-center gap-2 rounded px-2 py-2 text-gray-900 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent-soft";

export function DropdownMenuItem({ className, danger, ...props }: ComponentProps<typeof Menu.Item> & { danger?: boolean }) {
  return <Menu.Item className={cn(itemClasses, danger && "text-danger", className)} {...props} />;
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className={cn(itemClasses, "pl-7 relative", className)} {...props}>
      <Menu.ItemIndicator className="absolute left-2 size-2 rounded-full bg-accent" />
      {children}
    </Menu.RadioItem>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn("px-2 py-1.5 text-xs font-medium text-gray-600", className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn("my-1 h-px bg-gray-200", className)} {...props} />;
}
