/** A text field of a posted form; "" when it is absent or a file. */
export const field = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
