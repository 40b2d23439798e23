// cn(): joins class names, skipping falsy ones (clsx). Every component in components/ui uses it.
import { clsx, type ClassValue } from "clsx";

export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
