// Button: the one clickable control. Variants primary/secondary/ghost/danger, sizes sm/md/icon,
// `loading` (spinner, aria-busy, no second click), `asChild` to style a Link as a button.
import { Slot } from "@radix-ui/react-slot";
import type { ComponentProps } from "react";
import { cn } from "./cn";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "sm" | "md" | "icon";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-accent text-accent-fg hover:bg-accent-hover shadow-sm",
  secondary: "bg-white text-gray-900 border border-gray-300 hover:bg-gray-50 shadow-sm",
  ghost: "text-gray-700 hover:bg-gray-100 hover:text-gray-900",
  danger: "bg-danger text-white hover:bg-danger-hover shadow-sm",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-8 px-3 text-sm gap-1.5",
  md: "h-10 px-4 text-sm gap-2",
  icon: "size-9 justify-center",
};

/** The classes of a button, for elements that cannot be a <Button> themselves. */
export function buttonClasses(variant: ButtonVariant = "primary", size: ButtonSize = "md", className?: string) {
  return cn(
    "inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
    "disabled:pointer-events-none disabled:opacity-60 aria-busy:cursor-progress",
    variants[variant],
    sizes[size],
    className,
  );
}

export type ButtonProps = ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, sets aria-busy and disables the button so an action cannot be sent twice. */
  loading?: boolean;
  /** Renders the only child (a Link, say) with the button's look instead of a <button>. */
  asChild?: boolean;
};

export function Button({ variant = "primary", size = "md", loading = false, asChild = false, className, children, disabled, type, ...props }: ButtonProps) {
  const classes = buttonClasses(variant, size, className);
  if (asChild) {
    return (
      <Slot className={classes} {...(props as ComponentProps<typeof Slot>)}>
        {children}
      </Slot>
    );
  }
  return (
    <button type={type ?? "button"} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...props}>
      {loading && <Spinner />}
      {children}
    </button>
  );
}
