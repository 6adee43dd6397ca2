import "./Spinner.css";

/** The centred fade spinner of spec section 2: twelve bars fading in turn. */
export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="spinner" role="status">
      <div className="spinner__wheel" aria-hidden="true">
        {Array.from({ length: 12 }, (_, i) => (
          <span key={i} className={`spinner__bar spinner__bar--${i}`} />
        ))}
      </div>
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
