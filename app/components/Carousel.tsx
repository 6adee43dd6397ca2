import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { useEffect, useState } from "react";
import "./Carousel.css";

export interface Slide {
  src: string;
  alt: string;
}

const AUTOPLAY_MS = 5_000;

/**
 * The home page hero: slides that play on their own and loop for ever, with no indicators and no
 * thumbnails (spec section 9). Visitors who ask for reduced motion get still slides and arrows.
 */
export function Carousel({ slides, width, height }: { slides: Slide[]; width: number; height: number }) {
  const [autoplay] = useState(() => Autoplay({ delay: AUTOPLAY_MS, playOnInit: false, stopOnInteraction: false, stopOnMouseEnter: true }));
  const [viewportRef, embla] = useEmblaCarousel({ loop: true }, [autoplay]);
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect);
    const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
    const applyMotion = () => (motion.matches ? autoplay.stop() : autoplay.play());
    applyMotion();
    motion.addEventListener("change", applyMotion);
    return () => {
      embla.off("select", onSelect);
      motion.removeEventListener("change", applyMotion);
    };
  }, [embla, autoplay]);

  return (
    <section className="carousel" aria-roledescription="carousel" aria-label="Featured">
      <div className="carousel__viewport" ref={viewportRef}>
        <div className="carousel__track">
          {slides.map((slide, i) => (
            <div
              className="carousel__slide"
              key={slide.src}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${slides.length}`}
              aria-hidden={i !== selected}
              data-testid="carousel-slide"
              data-selected={i === selected}
            >
              <img
                src={slide.src}
                alt={slide.alt}
                width={width}
                height={height}
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : "low"}
                decoding={i === 0 ? "sync" : "async"}
              />
            </div>
          ))}
        </div>
      </div>
      <button type="button" className="carousel__arrow carousel__arrow--prev" aria-label="Previous slide" onClick={() => embla?.scrollPrev()}>
        ‹
      </button>
      <button type="button" className="carousel__arrow carousel__arrow--next" aria-label="Next slide" onClick={() => embla?.scrollNext()}>
        ›
      </button>
    </section>
  );
}
