/** A toast with a bold line and a description beneath (react-hot-toast renders it as given). */
export function ToastMessage({ title, description }: { title: string; description: string }) {
  return (
    <div className="toast-message">
      <strong className="toast-title">{title}</strong>
      <div className="toast-description">{description}</div>
    </div>
  );
}
