/** Links to the catalogue as a file, in either format (the back office's API streams it as a download). */
export function ExportLinks() {
  return (
    <p className="admin-products__export">
      Export every product on sale as <a href="/api/admin/products/export?format=csv">CSV</a> or{" "}
      <a href="/api/admin/products/export?format=json">JSON</a>.
    </p>
  );
}
