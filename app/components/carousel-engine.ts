import EmblaCarousel from "embla-carousel";
import Autoplay from "embla-carousel-autoplay";

export interface CarouselEngine {
  scrollPrev(): void;
  scrollNext(): void;
  destroy(): void;
}

/**
 * Sets the server-rendered slides moving: autoplay, infinite loop (spec section 9). Loaded when
 * the slides first have to move (app/components/Carousel.tsx), so the first load carries none of
 * it. Visitors who ask for reduced motion get still slides and the arrows.
 */
export function startCarousel(viewport: HTMLElement, delayMs: number, onSelect: (index: number) => void): CarouselEngine {
  const autoplay = Autoplay({ delay: delayMs, playOnInit: false, stopOnInteraction: false, stopOnMouseEnter: true });
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
