/** The portal's mark: a satellite dish, drawn inline so the app needs no image assets. */
export function SatelliteLogo({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 32 32"
      fill="none"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="8" fill="var(--primary-color, #3b82f6)" />
      <g stroke="#fff" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {/* dish bowl */}
        <path d="M8.5 12.5a9 9 0 0 0 11 11" />
        <path d="M8.5 12.5 19.5 23.5" />
        {/* feed arm and receiver */}
        <path d="M14 18l4.5-4.5" />
        <circle cx="19.5" cy="12.5" r="1.3" fill="#fff" />
        {/* mount */}
        <path d="M12 21.5 10 26h6" />
        {/* signal waves */}
        <path d="M21.5 7.5a4 4 0 0 1 3 3" />
        <path d="M22 4.5a7 7 0 0 1 5.5 5.5" />
      </g>
    </svg>
  );
}
