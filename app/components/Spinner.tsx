
const BARS = 12;
const PERIOD_S = 1.2;

/**
 * The fade spinner of spec section 2: twelve bars, each fading a moment after the last. The page
 * variant is centred over the page; the inline one is the small spinner inside a busy button.
 */
export function Spinner({ label = "Loading", inline = false }: { label?: string; inline?: boolean }) {
  const size = inline ? 16 : 48;
  return (
    <span className={inline ? "spinner spinner--inline" : "spinner"} role="status">
      <svg className="spinner__wheel" width={size} height={size} viewBox="0 0 48 48" aria-hidden="true">
        {Array.from({ length: BARS }, (_, i) => (
          <rect key={i} x="21" y="0" width="6" height="14" rx="3" fill="#232f3e" transform={`rotate(${i * (360 / BARS)} 24 24)`}>
            <animate
              attributeName="opacity"
              values="1;0.15"
              dur={`${PERIOD_S}s`}
              begin={`${(((i - BARS) * PERIOD_S) / BARS).toFixed(2)}s`}
              repeatCount="indefinite"
            />
          </rect>
        ))}
      </svg>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
