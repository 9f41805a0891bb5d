// A form field's problem, under it; the field names it in aria-describedby by `id`.
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <small id={id} className="p-error">
      {message}
    </small>
  ) : null;
}
