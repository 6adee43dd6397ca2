import { type RefObject, useEffect, useRef, useState } from "react";
import type { CarouselEngine } from "./carousel-engine.ts";

/** Time each slide stays before the next one comes (spec section 9: autoplay). */
const AUTOPLAY_MS = 5_000;

export interface Slide {
  src: string;
  /** The banner's words, written over its picture as text: readable on a phone, read by screen readers. */
  headline: string;
  tagline: string;
}

/**
 * Fetches the engine (embla) when the slides first have to move: at the first autoplay step, or as
 * soon as the shopper reaches for the carousel (pointer, touch, keyboard focus). A visit shorter
 * than one autoplay interval never downloads it.
 */
function useCarouselEngine(viewport: RefObject<HTMLDivElement | null>) {
  const engine = useRef<CarouselEngine | null>(null);
  const [selected, setSelected] = useState(0);
  const [moving, setMoving] = useState(false);
  const startEngine = useRef<() => Promise<CarouselEngine | null>>(() => Promise.resolve(null));
  useEffect(() => {
    let gone = false;
    let loading: Promise<CarouselEngine | null> | null = null;
    startEngine.current = () =>
      (loading ??= import("./carousel-engine.ts").then(({ startCarousel }) => {
        if (gone || !viewport.current) return null;
        engine.current = startCarousel(viewport.current, AUTOPLAY_MS, setSelected);
        setMoving(true);
        return engine.current;
      }));
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // Once started, the engine's own autoplay takes the later steps (and this first one, if the
    // shopper's reach started it earlier).
    const firstStep = still
      ? undefined
      : window.setTimeout(() => {
          if (!loading) void startEngine.current().then((started) => started?.scrollNext());
        }, AUTOPLAY_MS);
    return () => {
      gone = true;
      window.clearTimeout(firstStep);
      engine.current?.destroy();
      engine.current = null;
    };
  }, [viewport]);
  const reachedFor = () => void startEngine.current();
  const step = (direction: "scrollPrev" | "scrollNext") => void startEngine.current().then((started) => started?.[direction]());
  return { selected, moving, reachedFor, step };
}

/** One banner: its picture (the first one the page's largest paint) with its words over it. */
function BannerSlide({ slide, index, count, selected, width, height }: { slide: Slide; index: number; count: number; selected: boolean; width: number; height: number }) {
  const first = index === 0;
  return (
    <div
      className="carousel__slide"
      role="group"
      aria-roledescription="slide"
      aria-label={`${index + 1} of ${count}`}
      aria-hidden={!selected}
      data-testid="carousel-slide"
      data-selected={selected}
    >
      {/* The words are the slide's text; the picture adds nothing a screen reader needs. */}
      <img src={slide.src} alt="" width={width} height={height} loading={first ? "eager" : "lazy"} fetchPriority={first ? "high" : "low"} decoding={first ? "sync" : "async"} />
      <div className="carousel__words">
        <p className="carousel__headline">{slide.headline}</p>
        <p className="carousel__tagline">{slide.tagline}</p>
      </div>
    </div>
  );
}

/**
 * The home page hero: slides that play on their own and loop for ever, with no indicators and no
 * thumbnails (spec section 9). The server renders the slides as plain images with their words,
 * the first picture the page's largest paint; the engine that moves them is fetched only once they have to move.
 */
export function Carousel({ slides, width, height }: { slides: Slide[]; width: number; height: number }) {
  const viewport = useRef<HTMLDivElement>(null);
  const { selected, moving, reachedFor, step } = useCarouselEngine(viewport);
  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label="Featured"
      data-engine={moving ? "ready" : "waiting"}
      onPointerEnter={reachedFor}
      onPointerDown={reachedFor}
      onTouchStart={reachedFor}
      onFocus={reachedFor}
    >
      <div className="carousel__viewport" ref={viewport}>
        <div className="carousel__track">
          {slides.map((slide, i) => (
            <BannerSlide key={slide.src} slide={slide} index={i} count={slides.length} selected={i === selected} width={width} height={height} />
          ))}
        </div>
      </div>
      <button type="button" className="carousel__arrow carousel__arrow--prev" aria-label="Previous slide" onClick={() => step("scrollPrev")}>
        ‹
      </button>
      <button type="button" className="carousel__arrow carousel__arrow--next" aria-label="Next slide" onClick={() => step("scrollNext")}>
        ›
      </button>
    </section>
  );
}
