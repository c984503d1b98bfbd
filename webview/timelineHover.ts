// Reading the chart: the value of the call under the pointer, or of the call ←/→/Home/End moved to
// when the plot has the focus, in a tooltip (a live region) with its bar highlighted.
import { el } from './dom';
import { barAt, type TimelineBar } from './logic/timelineLayout';
import { barFraction, HEIGHT, type ChartGeometry } from './timelineChart';

const MOVES: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };

/** Adds the tooltip to `plot` and wires pointer and keys; `text` says a bar's value. */
export function attachHover(
  plot: HTMLElement,
  highlight: SVGElement,
  bars: readonly TimelineBar[],
  geometry: ChartGeometry,
  text: (bar: TimelineBar) => string,
): void {
  const tooltip = el('div', { class: 'timeline-tooltip', 'data-testid': 'timeline-tooltip', role: 'status', 'aria-live': 'polite', hidden: '' });
  plot.appendChild(tooltip);

  let shown: number | null = null;
  const show = (index: number | null): void => {
    shown = index;
    const bar = index === null ? undefined : bars[index];
    if (!bar) {
      tooltip.hidden = true;
      highlight.setAttribute('visibility', 'hidden');
      return;
    }
    tooltip.textContent = text(bar);
    tooltip.hidden = false;
    const fraction = barFraction(bar, geometry);
    // Kept inside the plot: anchored left on the left half, right on the right half.
    tooltip.style.left = fraction < 0.5 ? `${fraction * 100}%` : '';
    tooltip.style.right = fraction < 0.5 ? '' : `${(1 - fraction) * 100}%`;
    const top = geometry.yOf(bar.point.usedTokens);
    highlight.setAttribute('x', String(bar.index * geometry.step));
    highlight.setAttribute('y', String(top));
    highlight.setAttribute('height', String(HEIGHT - top));
    highlight.setAttribute('visibility', 'visible');
  };
  plot.addEventListener('mousemove', (event) => {
    const rect = plot.getBoundingClientRect();
    show(barAt((event.clientX - rect.left) / rect.width, bars.length, geometry.slots));
  });
  plot.addEventListener('mouseleave', () => show(null));
  plot.addEventListener('blur', () => show(null));
  plot.addEventListener('keydown', (event) => {
    const move = MOVES[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const from = shown ?? bars.length - 1;
    show(Math.min(Math.max(move === -Infinity ? 0 : move === Infinity ? bars.length - 1 : from + move, 0), bars.length - 1));
  });
}
