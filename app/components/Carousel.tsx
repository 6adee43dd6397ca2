import { useEffect, useRef, useState } from "react";
import type { CarouselEngine } from "./carousel-engine.ts";

export interface Slide {
  src: string;
  alt: string;
}

/**
 * The home page hero: slides that play on their own and loop for ever, with no indicators and no
 * thumbnails (spec section 9). The server renders the slides as plain images, the first one the
 * page's largest paint; the engine that moves them (embla) is fetched once the page has hydrated.
 */
export function Carousel({ slides, width, height }: { slides: Slide[]; width: number; height: number }) {
  const viewport = useRef<HTMLDivElement>(null);
  const engine = useRef<CarouselEngine | null>(null);
  const [selected, setSelected] = useState(0);
  const [moving, setMoving] = useState(false);

  useEffect(() => {
    let gone = false;
    void import("./carousel-engine.ts").then(({ startCarousel }) => {
      if (gone || !viewport.current) return;
      engine.current = startCarousel(viewport.current, setSelected);
      setMoving(true);
    });
    return () => {
      gone = true;
      engine.current?.destroy();
      engine.current = null;
    };
  }, []);

  return (
    <section className="carousel" aria-roledescription="carousel" aria-label="Featured" data-engine={moving ? "ready" : "loading"}>
      <div className="carousel__viewport" ref={viewport}>
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
      <button type="button" className="carousel__arrow carousel__arrow--prev" aria-label="Previous slide" onClick={() => engine.current?.scrollPrev()}>
        ‹
      </button>
      <button type="button" className="carousel__arrow carousel__arrow--next" aria-label="Next slide" onClick={() => engine.current?.scrollNext()}>
        ›
      </button>
    </section>
  );
}
