// The fleet map's drawing: the world's land (world-atlas's 110m, projected once when the page's
// chunk loads), the pins and clusters at the current zoom, the legend, the terminals that share one
// spot, the status filter and the terminals without a location. Props in and callbacks out; the
// page (src/routes/fleet-map.tsx) holds the machine, the filter and the customer search.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import Supercluster from 'supercluster';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import land110m from 'world-atlas/land-110m.json';
import {
  CLUSTER_RADIUS,
  CONDITION_COLOURS,
  CONDITION_LABELS,
  CONDITION_SHAPES,
  FLEET_MAP_TEXTS as T,
  MAX_ZOOM,
  MIN_ZOOM,
  PAN_STEP,
  VIEW_HEIGHT,
  VIEW_WIDTH,
  addCounts,
  centreOn,
  clusterLabel,
  clusterOptions,
  clusterRadius,
  clusterSegments,
  countConditions,
  countsOfPoint,
  fitViewport,
  landPath,
  markPath,
  markScale,
  panBy,
  pinLabel,
  project,
  terminalUrl,
  viewBounds,
  worldPointOf,
  worldToView,
  worldTransform,
  zoomAt,
  type ConditionCounts,
  type FleetPoint,
  type FleetPointProperties,
  type LandGeoJson,
  type ViewPoint,
  type Viewport,
} from '../../domain/fleet-map';
import type { FleetMap } from '../../domain/telemetry-history';
import { TERMINAL_CONDITIONS, type TerminalCondition } from '../../domain/terminals';
import { isPlainLeftClick, NavLink } from '../common/NavLink';

// The coastline, projected once when the page's chunk loads; each view only moves and scales it.
const atlas = land110m as unknown as Topology;
const LAND_PATH = landPath(feature(atlas, atlas.objects.land!) as LandGeoJson);

type ClusterIndex = Supercluster<FleetPointProperties, ConditionCounts>;

const PIN_SIZE = 12;
/** A pin answers clicks a little beyond its mark: a 12-unit mark is a small target. */
const PIN_HIT_RADIUS = 11;
/** Pointer movement (screen pixels) below which a press is a click, not a drag. */
const DRAG_THRESHOLD = 4;
/** Wheel travel (pixels) per zoom step: one notch of a mouse wheel, several flicks of a touchpad. */
const WHEEL_STEP = 100;

// Focus shows as a ring on the pin or cluster itself (an outline box would not follow a circle).
const MAP_STYLE = `
.fleet-map-target { cursor: pointer; outline: none; }
.fleet-map-focus { fill: none; stroke: none; }
.fleet-map-target:focus-visible .fleet-map-focus { stroke: var(--focus-ring); }
`;

// ---- Filters -------------------------------------------------------------------------------------

/** The filters' "every one" choice. */
export const ALL = 'all';
const STATUS_OPTIONS = [{ value: ALL, label: T.allStatuses }, ...TERMINAL_CONDITIONS.map((c) => ({ value: c, label: CONDITION_LABELS[c] }))];

export function StatusFilter({ value, onChange }: { value: TerminalCondition | undefined; onChange(next: TerminalCondition | undefined): void }) {
  const id = `${useId()}-status`;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {T.statusFilter}
      </label>
      <Dropdown
        inputId={id}
        className="list-status"
        value={value ?? ALL}
        options={STATUS_OPTIONS}
        optionLabel="label"
        optionValue="value"
        onChange={(event) => onChange(event.value === ALL ? undefined : (event.value as TerminalCondition))}
      />
    </>
  );
}

/** The customer filter: its search box asks the server (a list actor over the customers API). */
// ---- The map -------------------------------------------------------------------------------------

type MapFeature = ReturnType<ClusterIndex['getClusters']>[number];
type ClusterFeature = Extract<MapFeature, { properties: { cluster: true } }>;

const isCluster = (f: MapFeature): f is ClusterFeature => 'cluster' in f.properties && f.properties.cluster === true;

const fitTo = (points: readonly FleetPoint[] | null): Viewport => fitViewport((points ?? []).map(worldPointOf));

function viewPointOf(svg: SVGSVGElement, clientX: number, clientY: number): ViewPoint {
  const box = svg.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return { vx: VIEW_WIDTH / 2, vy: VIEW_HEIGHT / 2 };
  return { vx: ((clientX - box.left) / box.width) * VIEW_WIDTH, vy: ((clientY - box.top) / box.height) * VIEW_HEIGHT };
}

/** Map units per screen pixel (the SVG scales to its box; without one, as in a test, one to one). */
function unitsPerPixel(svg: SVGSVGElement | null): number {
  const width = svg?.getBoundingClientRect().width ?? 0;
  return width > 0 ? VIEW_WIDTH / width : 1;
}

/**
 * The world map with the fleet on it. `points` is null while an answer is awaited: the view then
 * stays where it is, and fits the new answer's terminals when they come.
 */
export function FleetMapCanvas({ points, onNavigate }: { points: readonly FleetPoint[] | null; onNavigate(url: string): void }) {
  const hintId = useId();
  const svgRef = useRef<SVGSVGElement>(null);
  const [viewport, setViewport] = useState<Viewport>(() => fitTo(points));
  // Map units per screen pixel, past the first: on a phone the marks grow to keep their size.
  const [scale, setScale] = useState(1);
  const [fittedTo, setFittedTo] = useState(points);
  // Terminals at one spot, listed after a click on a cluster no zoom can part.
  const [shared, setShared] = useState<FleetPoint[] | null>(null);
  if (points !== null && points !== fittedTo) {
    setFittedTo(points);
    setViewport(fitTo(points));
    setShared(null);
  }

  const index = useMemo(() => {
    const clusters: ClusterIndex = new Supercluster<FleetPointProperties, ConditionCounts>({ ...clusterOptions(scale), map: countsOfPoint, reduce: addCounts });
    return clusters.load([...(points ?? [])]);
  }, [points, scale]);
  const features = useMemo(() => {
    const at = (f: MapFeature) => worldToView(viewport, project(f.geometry.coordinates[0]!, f.geometry.coordinates[1]!));
    // Drawn, and reached with Tab, in reading order: top to bottom, then left to right.
    return index
      .getClusters(viewBounds(viewport, CLUSTER_RADIUS * scale), viewport.zoom)
      .map((f) => ({ feature: f, at: at(f) }))
      .sort((a, b) => a.at.vy - b.at.vy || a.at.vx - b.at.vx);
  }, [index, viewport, scale]);

  const moveTo = useCallback((next: (current: Viewport) => Viewport) => {
    setViewport(next);
    setShared(null);
  }, []);

  // The first measure comes with the observer's first report, and each resize after it.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setScale(markScale(svg.getBoundingClientRect().width)));
    observer.observe(svg);
    return () => observer.disconnect();
  }, []);

  // The wheel zooms at the pointer. A listener of our own, not React's (which is passive), so that
  // the page does not scroll under the map as it zooms.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    let travel = 0;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      travel += event.deltaY * (event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1);
      if (Math.abs(travel) < WHEEL_STEP) return;
      const step = travel < 0 ? 1 : -1;
      travel = 0;
      const anchor = viewPointOf(svg, event.clientX, event.clientY);
      moveTo((v) => zoomAt(v, v.zoom + step, anchor));
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [moveTo]);

  // Dragging: a press becomes a drag once it moves; then the pointer is captured and the click
  // that ends it opens nothing.
  const drag = useRef<{ pointerId: number; x: number; y: number; moved: boolean } | null>(null);
  const dragged = useRef(false);
  const [dragging, setDragging] = useState(false);
  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    drag.current = { pointerId: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
    dragged.current = false;
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== event.pointerId) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      d.moved = true;
      setDragging(true);
      event.currentTarget.setPointerCapture?.(event.pointerId);
    }
    d.x = event.clientX;
    d.y = event.clientY;
    const scale = unitsPerPixel(svgRef.current);
    moveTo((v) => panBy(v, dx * scale, dy * scale));
  };
  const endDrag = () => {
    if (drag.current?.moved) dragged.current = true;
    drag.current = null;
    setDragging(false);
  };

  const openCluster = (clusterId: number, at: FleetPoint['geometry']['coordinates']) => {
    if (dragged.current) return;
    const zoom = index.getClusterExpansionZoom(clusterId);
    if (zoom > MAX_ZOOM) {
      setShared(index.getLeaves(clusterId, Infinity));
      return;
    }
    moveTo(() => centreOn(project(at[0]!, at[1]!), zoom));
  };

  const placed = useMemo(() => countConditions(points ?? []), [points]);
  const button = (label: string, icon: string, onClick: () => void, disabled = false) => (
    <Button type="button" icon={`pi ${icon}`} aria-label={label} title={label} outlined size="small" disabled={disabled} onClick={onClick} />
  );

  return (
    <div className="fleet-map">
      <div className="list-toolbar" style={{ justifyContent: 'space-between', margin: '0.75rem 0 0.5rem' }}>
        <div role="group" aria-label="Map view" style={{ display: 'flex', flexWrap: 'wrap', gap: '0.25rem' }}>
          {button(T.zoomIn, 'pi-plus', () => moveTo((v) => zoomAt(v, v.zoom + 1)), viewport.zoom >= MAX_ZOOM)}
          {button(T.zoomOut, 'pi-minus', () => moveTo((v) => zoomAt(v, v.zoom - 1)), viewport.zoom <= MIN_ZOOM)}
          {button(T.panLeft, 'pi-arrow-left', () => moveTo((v) => panBy(v, PAN_STEP.x, 0)))}
          {button(T.panUp, 'pi-arrow-up', () => moveTo((v) => panBy(v, 0, PAN_STEP.y)))}
          {button(T.panDown, 'pi-arrow-down', () => moveTo((v) => panBy(v, 0, -PAN_STEP.y)))}
          {button(T.panRight, 'pi-arrow-right', () => moveTo((v) => panBy(v, -PAN_STEP.x, 0)))}
          {button(T.resetView, 'pi-expand', () => moveTo(() => fitTo(points)))}
        </div>
        <Legend counts={placed} />
      </div>

      <svg
        ref={svgRef}
        viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
        role="group"
        aria-label={T.mapLabel}
        aria-describedby={hintId}
        data-zoom={viewport.zoom}
        style={{
          display: 'block',
          width: '100%',
          height: 'auto',
          borderRadius: 'var(--app-radius)',
          border: '1px solid var(--surface-border)',
          background: 'var(--accent-wash)',
          touchAction: 'none',
          userSelect: 'none',
          cursor: dragging ? 'grabbing' : 'grab',
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <style>{MAP_STYLE}</style>
        <g transform={worldTransform(viewport)} aria-hidden="true">
          <path d={LAND_PATH} vectorEffect="non-scaling-stroke" style={{ fill: 'var(--surface-200, var(--surface-border))', stroke: 'var(--surface-400, var(--surface-border))', strokeWidth: 0.75 }} />
        </g>
        {features.map(({ feature: f, at }) => {
          if (!isCluster(f)) return <Pin key={`p${f.properties.userTerminalId}`} at={at} point={f.properties} scale={scale} dragged={dragged} onNavigate={onNavigate} />;
          const clusterId = f.properties.cluster_id;
          return (
            <Cluster
              key={`c${clusterId}`}
              at={at}
              counts={f.properties}
              total={f.properties.point_count}
              scale={scale}
              expandable={index.getClusterExpansionZoom(clusterId) <= MAX_ZOOM}
              onOpen={() => openCluster(clusterId, f.geometry.coordinates)}
            />
          );
        })}
      </svg>
      <p id={hintId} className="cell-secondary" style={{ marginTop: '0.5rem' }}>
        Drag to move the map and scroll to zoom, or use the buttons above. A cluster zooms in on its terminals; a pin opens its terminal.
      </p>

      {shared && <SharedSpot points={shared} onNavigate={onNavigate} onClose={() => setShared(null)} />}
    </div>
  );
}

function Mark({ condition, size }: { condition: TerminalCondition; size: number }) {
  const ring = CONDITION_SHAPES[condition] === 'ring';
  const unit = size / PIN_SIZE;
  return (
    <path
      d={markPath(CONDITION_SHAPES[condition], size)}
      data-condition={condition}
      style={{
        fill: ring ? 'var(--surface-card, #ffffff)' : CONDITION_COLOURS[condition],
        stroke: ring ? CONDITION_COLOURS[condition] : 'var(--surface-card, #ffffff)',
        strokeWidth: (ring ? 3 : 1.5) * unit,
      }}
    />
  );
}

function Pin({ at, point, scale, dragged, onNavigate }: { at: ViewPoint; point: FleetPointProperties; scale: number; dragged: { current: boolean }; onNavigate(url: string): void }) {
  const url = terminalUrl(point.userTerminalId);
  const label = pinLabel(point.userTerminalId, point.condition);
  return (
    <a
      href={url}
      role="link"
      aria-label={label}
      className="fleet-map-target"
      onClick={(event) => {
        if (dragged.current) {
          event.preventDefault();
          return;
        }
        if (!isPlainLeftClick(event)) return;
        event.preventDefault();
        onNavigate(url);
      }}
    >
      <title>{label}</title>
      <g transform={`translate(${at.vx} ${at.vy})`}>
        <circle r={PIN_HIT_RADIUS * scale} style={{ fill: 'transparent' }} />
        <circle r={(PIN_HIT_RADIUS - 1) * scale} className="fleet-map-focus" strokeWidth={3 * scale} />
        <Mark condition={point.condition} size={PIN_SIZE * scale} />
      </g>
    </a>
  );
}

function Cluster(props: { at: ViewPoint; counts: ConditionCounts; total: number; scale: number; expandable: boolean; onOpen(): void }) {
  const r = clusterRadius(props.total) * props.scale;
  const ringRadius = r - 3 * props.scale;
  const circumference = 2 * Math.PI * ringRadius;
  const label = clusterLabel(props.counts, props.expandable);
  const onKeyDown = (event: KeyboardEvent<SVGGElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    props.onOpen();
  };
  return (
    <g role="button" tabIndex={0} aria-label={label} className="fleet-map-target" transform={`translate(${props.at.vx} ${props.at.vy})`} onClick={props.onOpen} onKeyDown={onKeyDown}>
      <title>{label}</title>
      <circle r={r} style={{ fill: 'var(--surface-card, #ffffff)', stroke: 'var(--surface-border)', strokeWidth: props.scale }} />
      {clusterSegments(props.counts, circumference).map((segment) => (
        <circle
          key={segment.condition}
          r={ringRadius}
          transform="rotate(-90)"
          data-condition={segment.condition}
          style={{ fill: 'none', stroke: CONDITION_COLOURS[segment.condition], strokeWidth: 5 * props.scale }}
          strokeDasharray={`${segment.length} ${circumference}`}
          strokeDashoffset={-segment.offset}
        />
      ))}
      <circle r={r + 2 * props.scale} className="fleet-map-focus" strokeWidth={3 * props.scale} />
      <text textAnchor="middle" dy="0.35em" aria-hidden="true" style={{ fill: 'var(--text-color)', fontSize: 12 * props.scale, fontWeight: 600 }}>
        {props.total > 999 ? `${Math.round(props.total / 100) / 10}k` : props.total}
      </text>
    </g>
  );
}

function Legend({ counts }: { counts: ConditionCounts }) {
  return (
    <ul aria-label={T.legend} style={{ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', listStyle: 'none', margin: 0, padding: 0 }}>
      {TERMINAL_CONDITIONS.map((condition) => (
        <li key={condition} style={{ display: 'inline-flex', alignItems: 'center', gap: '0.35rem' }}>
          <svg width="16" height="16" viewBox="-8 -8 16 16" aria-hidden="true">
            <Mark condition={condition} size={PIN_SIZE} />
          </svg>
          <span>
            {CONDITION_LABELS[condition]} <span className="cell-secondary">{counts[condition].toLocaleString('en-US')}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function SharedSpot({ points, onNavigate, onClose }: { points: FleetPoint[]; onNavigate(url: string): void; onClose(): void }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} style={{ marginTop: '0.75rem' }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '0.5rem' }}>
        <h3 id={titleId} className="section-title">
          {T.sharedSpot(points.length)}
        </h3>
        <Button type="button" label={T.closeShared} icon="pi pi-times" text size="small" onClick={onClose} />
      </div>
      <ul>
        {points.map(({ properties: p }) => (
          <li key={p.userTerminalId}>
            <NavLink url={terminalUrl(p.userTerminalId)} onNavigate={onNavigate}>
              {p.userTerminalId}
            </NavLink>{' '}
            <span style={{ color: CONDITION_COLOURS[p.condition] }}>· {CONDITION_LABELS[p.condition]}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

// ---- Without a location --------------------------------------------------------------------------

export function UnlocatedTerminals({ map, total, onNavigate }: { map: FleetMap; total: number; onNavigate(url: string): void }) {
  const titleId = useId();
  const listed = map.unlocated.terminals;
  return (
    <section className="list-card" aria-labelledby={titleId} style={{ marginTop: '1rem' }}>
      <h2 id={titleId} className="section-title">
        {T.unlocated(total)}
      </h2>
      <p className="cell-secondary">{T.unlocatedHint}</p>
      {listed.length > 0 && (
        <ul style={{ columns: '18rem', paddingLeft: '1.25rem' }}>
          {listed.map((t) => (
            <li key={t.userTerminalId}>
              <NavLink url={terminalUrl(t.userTerminalId)} onNavigate={onNavigate}>
                {t.nickname ?? t.userTerminalId}
              </NavLink>
              {t.serviceLineNumber && <span className="cell-secondary"> · {t.serviceLineNumber}</span>}
              <span style={{ color: CONDITION_COLOURS[t.condition] }}> · {CONDITION_LABELS[t.condition]}</span>
            </li>
          ))}
        </ul>
      )}
      {total > listed.length && listed.length > 0 && <p className="cell-secondary">{T.unlocatedListed(listed.length)}</p>}
    </section>
  );
}
