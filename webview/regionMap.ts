// The region map: every context item as one row of a virtualised grid. Only the rows on screen
// (plus overscan) exist in the DOM, recycled from a small pool, so 10k+ items scroll smoothly.
// Keyboard: ↑/↓/PageUp/PageDown/Home/End move the selection, Enter opens the item, `/` filters,
// K keeps and D drops the selected item (again to undo). The choices bar above lists what was chosen.
// While the live proxy changed items of this context, a "live" column says what reached the model.
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { ChoiceAction, Choices, CostView, LiveFate, Region } from '../src/protocol/messages';
import { printable } from '../src/protocol/printable';
import { custom, el, icon } from './dom';
import { filterRegions, shownFate } from './logic/filter';
import { CATEGORY_LABELS, exactTokens, FATE_ICONS } from './logic/format';
import { PROTECTION_NAMES, secondThoughts, TIER_NAMES } from '../src/protocol/categories';
import { liveFatesText } from './logic/liveProxy';
import { costCell, MAP_SORTS, sortVisible, type MapSort } from './logic/costView';
import { scrollAfterSort } from './logic/mapScroll';
import { renderFileGroups } from './fileGroups';
import { moveSelection, scrollToReveal, virtualWindow } from './logic/virtualWindow';

/** Must match the row height in styles.css (.region-row); rows are positioned by index × height. */
const ROW_HEIGHT = 22;
const OVERSCAN = 10;
const MAX_VISIBLE_ROWS = 12;
const COLUMNS = ['#', 'kind', 'label', 'tokens', 'cost', 'fate', 'live', 'why', 'markers', 'keep/drop'] as const;
const COLUMN_CLASS: Readonly<Record<(typeof COLUMNS)[number], string>> = {
  '#': 'id',
  kind: 'kind',
  label: 'label',
  tokens: 'tokens',
  cost: 'cost',
  fate: 'fate',
  live: 'live',
  why: 'why',
  markers: 'markers',
  'keep/drop': 'choice',
};
const COLUMN_TITLES: Partial<Record<(typeof COLUMNS)[number], string>> = {
  cost: 'What carrying the item has cost so far: its share of every prompt it was in, at the price that call paid',
};
const SORT_NAMES: Readonly<Record<MapSort, string>> = { order: 'context order', tokens: 'tokens', cost: 'cost' };
const NO_CHOICES: Choices = { keep: [], drop: [], pins: [] };

type Choice = 'keep' | 'drop' | null;

export interface RegionMapState {
  selectedId: number | null;
  filter: string;
  scrollTop: number | null;
  /** Absent in a state saved by an earlier version: context order, items. */
  sort?: MapSort;
  groupByFile?: boolean;
}

export interface RegionMapEvents {
  /** The user opened an item (click or Enter). */
  open(id: number): void;
  /** Selection, filter or scroll changed: worth remembering across hide/show. */
  changed(state: RegionMapState): void;
  /** Keep / drop / undo on a row, or a change from the choices bar. */
  choose(action: ChoiceAction): void;
}

type TextField = HTMLElement & { value: string };

export class RegionMap {
  readonly element: HTMLElement;
  private readonly title = el('h2', { id: 'region-map-title' });
  private readonly count = el('span', { class: 'muted small', 'aria-live': 'polite' });
  private readonly filterBox = custom('vscode-textfield', {
    placeholder: 'Filter (/): text, kind:tool_result, fate:dropped',
    'aria-label': 'Filter items',
    class: 'region-filter',
  }) as TextField;
  private readonly grid = el('div', {
    class: 'region-grid',
    role: 'grid',
    tabindex: '0',
    'aria-labelledby': 'region-map-title',
    'aria-colcount': String(COLUMNS.length),
    'data-testid': 'region-map',
  });
  private readonly scroller = el('div', { class: 'region-scroller', role: 'rowgroup' });
  private readonly spacer = el('div', { class: 'region-spacer' });
  private readonly pool: HTMLElement[] = [];
  private readonly choicesBar = el('div', { class: 'choices-bar', 'data-testid': 'choices-bar', 'aria-live': 'polite' });
  private choices: Choices = NO_CHOICES;
  private live = new Map<number, LiveFate>();
  /** "Live proxy: 3 stubbed, 1 cleared in what reached the model", shown while there are live fates. */
  private readonly liveBar = el('p', { class: 'live-bar small', 'data-testid': 'live-fates', role: 'status' });
  /** Sort buttons and the group-by-file toggle, over the map. */
  private readonly toolbar = el('div', { class: 'map-toolbar small', role: 'toolbar', 'aria-label': 'Map view' });
  private readonly fileGroups = el('div', { class: 'file-groups', 'data-testid': 'file-groups' });
  private cost: CostView | null = null;
  private regions: readonly Region[] = [];
  /** Indices into `regions` that pass the filter, in display order. */
  private visible: number[] = [];
  private positionById = new Map<number, number>();
  private frame = 0;

  constructor(
    private state: RegionMapState,
    private readonly events: RegionMapEvents,
  ) {
    const header = el(
      'div',
      { class: 'region-row region-header', role: 'row', 'aria-rowindex': '1' },
      ...COLUMNS.map((name) => el('span', { role: 'columnheader', class: `col-${COLUMN_CLASS[name]}`, title: COLUMN_TITLES[name] ?? name }, name)),
    );
    this.scroller.appendChild(this.spacer);
    this.grid.append(el('div', { role: 'rowgroup', class: 'region-header-group' }, header), this.scroller);
    this.element = el(
      'section',
      { class: 'region-map', 'aria-labelledby': 'region-map-title' },
      el('div', { class: 'section-title' }, this.title, this.count),
      this.liveBar,
      this.choicesBar,
      this.toolbar,
      this.filterBox,
      this.grid,
      this.fileGroups,
      el('p', { class: 'muted small hint' }, '↑/↓ move · Enter opens the item · K keeps, D drops (again to undo) · / filters'),
    );
    this.choicesBar.hidden = true;
    this.liveBar.hidden = true;
    this.choicesBar.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLElement>('[data-action]');
      if (!button) return;
      if (button.dataset.action === 'clearAll') this.events.choose({ kind: 'clearAll' });
      else if (button.dataset.action === 'unpin') this.events.choose({ kind: 'unpin', text: button.dataset.text ?? '' });
      else if (button.dataset.action === 'undo') this.events.choose({ kind: 'undo', id: Number(button.dataset.id) });
    });
    this.filterBox.value = state.filter;
    this.toolbar.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLElement>('button[data-view]');
      if (!button) return;
      if (button.dataset.view === 'group') this.setView({ groupByFile: !this.state.groupByFile });
      else this.setView({ sort: button.dataset.view as MapSort });
    });
    this.renderView();

    this.filterBox.addEventListener('input', () => this.setFilter(this.filterBox.value));
    this.filterBox.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' || event.key === 'ArrowDown') {
        event.preventDefault();
        this.grid.focus();
      }
    });
    this.scroller.addEventListener('scroll', () => this.onScroll());
    this.grid.addEventListener('keydown', (event) => this.onKey(event));
    this.scroller.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.region-row[data-id]');
      if (!row) return;
      const id = Number(row.dataset.id);
      const toggle = (event.target as HTMLElement).closest<HTMLElement>('button[data-choice]');
      if (toggle) {
        this.toggle(id, toggle.dataset.choice === 'keep' ? 'keep' : 'drop');
        return;
      }
      this.select(id);
      this.events.open(id);
    });
  }

  /** A new plan or preview: keep selection (by id), filter and scroll; rebuild only the index. */
  setRegions(regions: readonly Region[], title: string, summary: string): void {
    this.regions = regions;
    this.title.textContent = printable(title);
    this.title.title = summary;
    this.count.textContent = summary;
    this.reindex();
  }

  /** The person's choices (from the live plan): row toggles and the bar above the map. */
  setChoices(choices: Choices): void {
    if (JSON.stringify(choices) === JSON.stringify(this.choices)) return;
    this.choices = choices;
    renderChoicesBar(this.choicesBar, choices);
    this.renderRows();
  }

  /** The live proxy's fates of this context's items (what reached the model instead of them). */
  setLive(items: readonly LiveFate[]): void {
    const next = new Map(items.map((item) => [item.id, item]));
    if (JSON.stringify([...next]) === JSON.stringify([...this.live])) return;
    this.live = next;
    this.element.classList.toggle('has-live', next.size > 0);
    this.liveBar.hidden = next.size === 0;
    this.liveBar.replaceChildren(
      icon('radio-tower'),
      ` Live proxy: ${liveFatesText(items)} in what reached the model (the live column); the map's fates say what Compact… would do.`,
    );
    this.renderRows();
  }

  /** What the session cost: the file groups (the rows carry their own costs). */
  setCost(cost: CostView | null): void {
    if (JSON.stringify(cost) === JSON.stringify(this.cost)) return;
    this.cost = cost;
    if (this.state.groupByFile) this.fileGroups.replaceChildren(...renderFileGroups(cost, this.sort));
  }

  private get sort(): MapSort {
    return this.state.sort ?? 'order';
  }

  private setView(part: Pick<RegionMapState, 'sort' | 'groupByFile'>): void {
    const resorted = part.sort !== undefined && part.sort !== this.sort;
    this.state = { ...this.state, ...part, scrollTop: scrollAfterSort(this.sort, part.sort ?? this.sort, this.state.scrollTop) };
    if (resorted) this.fileGroups.scrollTop = 0;
    this.renderView();
    this.reindex();
    this.events.changed(this.state);
  }

  /** The toolbar's pressed buttons, and the grid or the file groups. */
  private renderView(): void {
    const grouped = this.state.groupByFile === true;
    const button = (view: string, label: string, pressed: boolean, title: string) =>
      el('button', { class: 'map-view-button', 'data-view': view, 'data-testid': `map-view-${view}`, 'aria-pressed': String(pressed), title }, label);
    this.toolbar.replaceChildren(
      el('span', { class: 'muted' }, 'Sort by '),
      ...MAP_SORTS.map((sort) =>
        button(sort, SORT_NAMES[sort], this.sort === sort, sort === 'order' ? 'Items in the order the model reads them' : `Biggest ${SORT_NAMES[sort]} first`),
      ),
      el('span', { class: 'muted' }, ' · '),
      button('group', 'group by file', grouped, 'All reads of one file as one row: how many, tokens now, cost so far'),
    );
    this.grid.hidden = grouped;
    this.filterBox.hidden = grouped;
    this.fileGroups.hidden = !grouped;
    if (grouped) this.fileGroups.replaceChildren(...renderFileGroups(this.cost, this.sort));
  }

  private choiceOf(id: number): Choice {
    return this.choices.keep.includes(id) ? 'keep' : this.choices.drop.includes(id) ? 'drop' : null;
  }

  private toggle(id: number, choice: 'keep' | 'drop'): void {
    this.events.choose(this.choiceOf(id) === choice ? { kind: 'undo', id } : { kind: choice, id });
  }

  focusFilter(): void {
    this.filterBox.focus();
  }

  private setFilter(filter: string): void {
    this.state = { ...this.state, filter };
    this.reindex();
    this.events.changed(this.state);
  }

  private reindex(): void {
    this.visible = sortVisible(this.regions, filterRegions(this.regions, this.state.filter), this.sort);
    this.positionById = new Map(this.visible.map((index, position) => [this.regions[index]!.id, position]));
    this.grid.setAttribute('aria-rowcount', String(this.visible.length + 1));
    this.spacer.style.height = `${this.visible.length * ROW_HEIGHT}px`;
    this.scroller.style.height = `${Math.max(Math.min(this.visible.length, MAX_VISIBLE_ROWS), 1) * ROW_HEIGHT}px`;
    this.element.dataset.count = String(this.visible.length);
    if (this.state.scrollTop === null) this.scroller.scrollTop = this.scroller.scrollHeight;
    else this.scroller.scrollTop = this.state.scrollTop;
    this.renderRows();
  }

  private onScroll(): void {
    const { scrollTop, scrollHeight, clientHeight } = this.scroller;
    // At the bottom the map follows new items, like a terminal: the newest context is the live part.
    const atEnd = scrollTop + clientHeight >= scrollHeight - ROW_HEIGHT / 2;
    this.state = { ...this.state, scrollTop: atEnd ? null : scrollTop };
    this.events.changed(this.state);
    if (this.frame === 0) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.renderRows();
      });
    }
  }

  private onKey(event: KeyboardEvent): void {
    const position = this.state.selectedId === null ? -1 : (this.positionById.get(this.state.selectedId) ?? -1);
    if (event.key === 'Enter' || event.key === ' ') {
      if (this.state.selectedId === null) return;
      event.preventDefault();
      this.events.open(this.state.selectedId);
      return;
    }
    const key = event.key.toLowerCase();
    if ((key === 'k' || key === 'd') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      if (this.state.selectedId === null) return;
      event.preventDefault();
      this.toggle(this.state.selectedId, key === 'k' ? 'keep' : 'drop');
      return;
    }
    const next = moveSelection(position, this.visible.length, event.key, MAX_VISIBLE_ROWS - 1);
    if (next === null) return;
    event.preventDefault();
    this.select(this.regions[this.visible[next]!]!.id);
  }

  /** Another session is shown: its rows are other items, so no row stays selected and the map opens at its top. */
  resetForSession(): void {
    this.state = { ...this.state, selectedId: null, scrollTop: 0 };
    this.scroller.scrollTop = 0;
    this.events.changed(this.state);
    this.renderRows();
  }

  private select(id: number): void {
    const position = this.positionById.get(id);
    this.state = { ...this.state, selectedId: id };
    if (position !== undefined) {
      this.scroller.scrollTop = scrollToReveal(position, ROW_HEIGHT, this.scroller.scrollTop, this.scroller.clientHeight);
    }
    this.events.changed(this.state);
    this.renderRows();
  }

  /** Places pool rows at the visible window; a row's content is rewritten only when it changes. */
  private renderRows(): void {
    const window = virtualWindow(
      this.visible.length,
      ROW_HEIGHT,
      this.scroller.scrollTop,
      this.scroller.clientHeight || MAX_VISIBLE_ROWS * ROW_HEIGHT,
      OVERSCAN,
    );
    const needed = window.end - window.start;
    while (this.pool.length < needed) {
      const row = el('div', { class: 'region-row', role: 'row' });
      this.pool.push(row);
      this.scroller.appendChild(row);
    }
    this.grid.removeAttribute('aria-activedescendant');
    for (let slot = 0; slot < this.pool.length; slot++) {
      const row = this.pool[slot]!;
      const position = window.start + slot;
      if (slot >= needed) {
        if (!row.hidden) vacate(row);
        continue;
      }
      const region = this.regions[this.visible[position]!]!;
      const selected = region.id === this.state.selectedId;
      row.hidden = false;
      row.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
      row.setAttribute('aria-rowindex', String(position + 2));
      fillRow(row, region, selected, this.choiceOf(region.id), this.live.get(region.id));
      if (selected) this.grid.setAttribute('aria-activedescendant', row.id);
    }
  }
}

/** Identity of what a row shows, so unchanged rows are left alone while scrolling. */
const rowKeys = new WeakMap<HTMLElement, { region: Region; choice: Choice; live: LiveFate | undefined }>();

/**
 * A pool row the window does not need: hidden, and no longer anyone's row. Left as it was, it kept
 * the id, fate and test id of the item it last showed, so that a lookup of "the row of #97" or "the
 * last kept row" could land on a stale hidden copy (after a filter shortened the list, say).
 */
function vacate(row: HTMLElement): void {
  row.hidden = true;
  row.removeAttribute('id');
  for (const key of ['id', 'fate', 'testid', 'live', 'choice', 'pinned']) delete row.dataset[key];
  row.classList.remove('selected');
  row.replaceChildren();
  rowKeys.delete(row);
}

function choiceButton(choice: 'keep' | 'drop', current: Choice, region: Region): HTMLElement {
  const pressed = current === choice;
  const label = `${pressed ? 'Undo ' : ''}${choice} #${region.id}`;
  return el(
    'button',
    {
      class: `choice-toggle choice-${choice}`,
      'data-choice': choice,
      'data-testid': `choice-${choice}`,
      'aria-pressed': String(pressed),
      'aria-label': label,
      title: `${choice === 'keep' ? 'Keep verbatim' : 'Drop from the context'} (${choice === 'keep' ? 'K' : 'D'})${pressed ? ' — chosen; click to undo' : ''}`,
      tabindex: '-1',
    },
    icon(choice === 'keep' ? 'lock' : 'trash'),
  );
}

/** What the live proxy sent instead of an item, for the row's tooltip. */
function liveText(live: LiveFate): string {
  return `live: ${live.fate} by the proxy — the model got ${exactTokens(live.tokensSent)} tokens in its place (recall ${live.ref})`;
}

function fillRow(row: HTMLElement, region: Region, selected: boolean, choice: Choice, live: LiveFate | undefined): void {
  row.classList.toggle('selected', selected);
  row.setAttribute('aria-selected', String(selected));
  const key = rowKeys.get(row);
  if (key?.region === region && key.choice === choice && key.live === live) return;
  rowKeys.set(row, { region, choice, live });
  row.dataset.live = live?.fate ?? '';
  row.dataset.choice = choice ?? '';
  const fate = shownFate(region);
  row.id = `region-row-${region.id}`;
  row.dataset.id = String(region.id);
  row.dataset.fate = region.fate;
  row.dataset.testid = 'region-row';
  row.dataset.pinned = String(region.pinned);
  const detail = [
    region.tier && `step: ${TIER_NAMES[region.tier] ?? region.tier}`,
    region.protection && `kept for: ${PROTECTION_NAMES[region.protection] ?? region.protection}`,
  ]
    .filter(Boolean)
    .join(' · ');
  row.title = `#${region.id} ${region.label}\n${fate}: ${region.reason}${detail ? `\n${detail}` : ''}${live ? `\n${liveText(live)}` : ''}`;
  const tokens = region.tokensAfter === region.tokens ? exactTokens(region.tokens) : `${exactTokens(region.tokens)} → ${exactTokens(region.tokensAfter)}`;
  row.replaceChildren(
    el('span', { role: 'gridcell', class: 'col-id' }, String(region.id)),
    el('span', { role: 'gridcell', class: 'col-kind' }, CATEGORY_LABELS[region.kind]),
    el('span', { role: 'gridcell', class: 'col-label' }, region.label),
    el('span', { role: 'gridcell', class: 'col-tokens' }, tokens),
    el(
      'span',
      {
        role: 'gridcell',
        class: 'col-cost',
        'data-testid': 'region-cost',
        ...(region.usd === undefined ? { title: "no price for this session's model" } : {}),
      },
      costCell(region),
    ),
    el('span', { role: 'gridcell', class: `col-fate fate-${fate}` }, icon(FATE_ICONS[fate]), ` ${fate}`),
    el(
      'span',
      { role: 'gridcell', class: 'col-live', ...(live ? { 'data-testid': 'live-fate', title: liveText(live) } : {}) },
      ...(live ? [icon('radio-tower'), ` ${live.fate}`] : []),
    ),
    el('span', { role: 'gridcell', class: 'col-why' }, region.reason),
    el(
      'span',
      { role: 'gridcell', class: 'col-markers' },
      region.markerCount > 0
        ? el(
            'span',
            {
              class: 'badge',
              'aria-label': secondThoughts(region.markerCount),
              title: `${secondThoughts(region.markerCount)}: where the agent doubted or corrected itself (kept through a compaction)`,
            },
            String(region.markerCount),
          )
        : '',
    ),
    el('span', { role: 'gridcell', class: 'col-choice' }, choiceButton('keep', choice, region), choiceButton('drop', choice, region)),
  );
}

/** "Your choices: kept #3 #5 · dropped #7 · pinned "…" [clear all]"; hidden when there are none. */
function renderChoicesBar(bar: HTMLElement, choices: Choices): void {
  const count = choices.keep.length + choices.drop.length + choices.pins.length;
  bar.hidden = count === 0;
  if (count === 0) {
    bar.replaceChildren();
    return;
  }
  const ids = (label: string, list: readonly number[], className: string) =>
    list.length === 0
      ? []
      : [
          el(
            'span',
            { class: className },
            `${label} `,
            ...list.map((id) =>
              el('button', { class: 'link-button', 'data-action': 'undo', 'data-id': String(id), title: `Undo your choice on #${id}` }, `#${id}`),
            ),
          ),
        ];
  const pins = choices.pins.map((text) =>
    el(
      'span',
      { class: 'choice-pin' },
      icon('pinned'),
      ` “${text.length > 80 ? `${text.slice(0, 79)}…` : text}” `,
      el('button', { class: 'link-button', 'data-action': 'unpin', 'data-text': text, title: 'Unpin this sentence' }, 'unpin'),
    ),
  );
  bar.replaceChildren(
    el('strong', {}, 'Your choices: '),
    ...[...ids('kept', choices.keep, 'fate-preserved'), ...ids('dropped', choices.drop, 'fate-dropped'), ...pins].flatMap((part, index) =>
      index === 0 ? [part] : [' · ', part],
    ),
    ' ',
    el('button', { class: 'link-button', 'data-action': 'clearAll', 'data-testid': 'choices-clear' }, 'clear all'),
  );
}
