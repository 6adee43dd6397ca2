import EmblaCarousel from "embla-carousel";
import Autoplay from "embla-carousel-autoplay";

const AUTOPLAY_MS = 5_000;

export interface CarouselEngine {
  scrollPrev(): void;
  scrollNext(): void;
  destroy(): void;
}

/**
 * Sets the server-rendered slides moving: autoplay, infinite loop (spec section 9). Loaded after
 * the page has hydrated, so the first paint carries none of this code. Visitors who ask for
 * reduced motion get still slides and the arrows.
 */
export function startCarousel(viewport: HTMLElement, onSelect: (index: number) => void): CarouselEngine {
  const autoplay = Autoplay({ delay: AUTOPLAY_MS, playOnInit: false, stopOnInteraction: false, stopOnMouseEnter: true });
  const embla = EmblaCarousel(viewport, { loop: true }, [autoplay]);
  const select = () => onSelect(embla.selectedScrollSnap());
  embla.on("select", select);
  const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const applyMotion = () => (motion.matches ? autoplay.stop() : autoplay.play());
  applyMotion();
  motion.addEventListener("change", applyMotion);
  return {
    scrollPrev: () => embla.scrollPrev(),
    scrollNext: () => embla.scrollNext(),
    destroy() {
      motion.removeEventListener("change", applyMotion);
      embla.off("select", select);
      embla.destroy();
    },
  };
}
