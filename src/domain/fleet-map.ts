// The fleet map (/terminals/map): where a terminal sits on the page's world map, which part of the
// world the map shows, how each status looks, and what the map's address carries. Pure: the page
// (src/routes/fleet-map.tsx) draws with it, clusters with supercluster and reads the base map from
// world-atlas; nothing here imports them.
//
// The map is Web Mercator because supercluster clusters in it: a cluster's radius is then the same
// number of map units wherever the cluster is. A position is kept as a fraction of the world (x: 0
// at 180° W, 1 at 180° E; y: 0 at the north edge, 85.05° N, 1 at the south edge). The view is
// VIEW_WIDTH × VIEW_HEIGHT map units; at zoom z the world is TILE_SIZE × 2^z units wide.
import type { Feature, Point } from 'geojson';
import { isPlaceable, conditionAt, type FleetMap, type FleetMapFilter } from './telemetry-history';
import { TERMINAL_CONDITIONS, TERMINAL_ID_PATTERN, type TerminalCondition } from './terminals';

// ---- The view ------------------------------------------------------------------------------------

export const VIEW_WIDTH = 960;
export const VIEW_HEIGHT = 600;
/** At zoom 0 the world is as wide as the view. */
export const TILE_SIZE = VIEW_WIDTH;
export const MIN_ZOOM = 0;
/**
 * Deep enough to part terminals about 100 m apart (the cluster radius is then ~90 m at the
 * equator), though the 110m coastline is long past its detail there. Terminals closer than that
 * (one site, one address) never part: the deepest cluster lists them instead.
 */
export const MAX_ZOOM = 14;
/** A fitted view stops here, so a fleet at one site still shows the country around it. */
export const FIT_MAX_ZOOM = 6;
/** Map units kept free around a fitted fleet, so the outermost pins are not on the edge. */
export const FIT_PADDING = 48;
/** Pins closer than this (map units) at the zoom shown join one cluster. */
export const CLUSTER_RADIUS = 36;
/** What supercluster is built with: its radius is relative to `extent`, which is our tile size. */
export const CLUSTER_OPTIONS = { radius: CLUSTER_RADIUS, extent: TILE_SIZE, minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM } as const;
/** The most a mark grows on a narrow screen (see `markScale`). */
export const MAX_MARK_SCALE = 3;

/**
 * Map units per screen pixel where the map is drawn narrower than its view (a phone): pins,
 * clusters and the cluster radius grow by it, so that on screen they keep the size they have on a
 * desktop and a finger can hit them. In quarter steps, so that resizing a window does not cluster
 * the fleet again at every pixel.
 */
export function markScale(renderedWidth: number): number {
  if (!(renderedWidth > 0) || renderedWidth >= VIEW_WIDTH) return 1;
  return Math.min(MAX_MARK_SCALE, Math.ceil((VIEW_WIDTH / renderedWidth) * 4) / 4);
}

/** supercluster's options at a mark scale: pins that would overlap on screen join one cluster. */
export const clusterOptions = (scale = 1) => ({ ...CLUSTER_OPTIONS, radius: CLUSTER_RADIUS * scale });

export interface WorldPoint {
  x: number;
  y: number;
}

export interface ViewPoint {
  vx: number;
  vy: number;
}

/** The longitude and latitude at a world position (the inverse of `project`). */
export interface LonLat {
  longitude: number;
  latitude: number;
}

/** Web Mercator, as supercluster computes it: a pole folds onto the world's edge, never off it. */
export function project(longitude: number, latitude: number): WorldPoint {
  const sin = Math.sin((latitude * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return { x: longitude / 360 + 0.5, y: Number.isNaN(y) ? 0.5 : Math.min(1, Math.max(0, y)) };
}

export function unproject({ x, y }: WorldPoint): LonLat {
  return { longitude: (x - 0.5) * 360, latitude: (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90 };
}

/** The centre of the view (a world position) and the zoom, a whole number from MIN_ZOOM to MAX_ZOOM. */
export interface Viewport {
  zoom: number;
  x: number;
  y: number;
}

export const worldSize = (zoom: number): number => TILE_SIZE * 2 ** zoom;

/**
 * The nearest viewport that keeps the view on the world: zoom whole and in range, and no empty
 * space beside the world when it is bigger than the view (a world smaller than the view, on an
 * axis, is centred on it).
 */
export function clampViewport(viewport: Viewport): Viewport {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(Number.isFinite(viewport.zoom) ? viewport.zoom : MIN_ZOOM)));
  const size = worldSize(zoom);
  const axis = (centre: number, span: number) => {
    const half = span / 2 / size;
    if (half >= 0.5 || !Number.isFinite(centre)) return 0.5;
    return Math.min(1 - half, Math.max(half, centre));
  };
  return { zoom, x: axis(viewport.x, VIEW_WIDTH), y: axis(viewport.y, VIEW_HEIGHT) };
}

/** The whole world, its centre a little north of the equator, where most land and most fleets are. */
export const WORLD_VIEWPORT: Viewport = clampViewport({ zoom: MIN_ZOOM, x: 0.5, y: project(0, 20).y });

export function worldToView(viewport: Viewport, point: WorldPoint): ViewPoint {
  const size = worldSize(viewport.zoom);
  return { vx: (point.x - viewport.x) * size + VIEW_WIDTH / 2, vy: (point.y - viewport.y) * size + VIEW_HEIGHT / 2 };
}

export function viewToWorld(viewport: Viewport, point: ViewPoint): WorldPoint {
  const size = worldSize(viewport.zoom);
  return { x: viewport.x + (point.vx - VIEW_WIDTH / 2) / size, y: viewport.y + (point.vy - VIEW_HEIGHT / 2) / size };
}

const VIEW_CENTRE: ViewPoint = { vx: VIEW_WIDTH / 2, vy: VIEW_HEIGHT / 2 };

/** Zooms to `zoom`, keeping the world position under `anchor` (the pointer, else the centre) where it was. */
export function zoomAt(viewport: Viewport, zoom: number, anchor: ViewPoint = VIEW_CENTRE): Viewport {
  const target = clampViewport({ ...viewport, zoom }).zoom;
  const fixed = viewToWorld(viewport, anchor);
  const size = worldSize(target);
  return clampViewport({ zoom: target, x: fixed.x - (anchor.vx - VIEW_WIDTH / 2) / size, y: fixed.y - (anchor.vy - VIEW_HEIGHT / 2) / size });
}

/** The map dragged by (dvx, dvy) map units: what was under the pointer follows it. */
export function panBy(viewport: Viewport, dvx: number, dvy: number): Viewport {
  const size = worldSize(viewport.zoom);
  return clampViewport({ zoom: viewport.zoom, x: viewport.x - dvx / size, y: viewport.y - dvy / size });
}

/** A pan button's step: a third of the view. */
export const PAN_STEP = { x: VIEW_WIDTH / 3, y: VIEW_HEIGHT / 3 } as const;

/** The view centred on a world position at a zoom (a cluster opened). */
export const centreOn = (point: WorldPoint, zoom: number): Viewport => clampViewport({ zoom, x: point.x, y: point.y });

/**
 * The zoom and centre that show every point, up to FIT_MAX_ZOOM; the whole world when there is
 * none. A fleet spread east to west still opens on the world, and one customer's boats on their
 * coast.
 */
export function fitViewport(points: readonly WorldPoint[]): Viewport {
  if (points.length === 0) return WORLD_VIEWPORT;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y } of points) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const fits = (room: number, span: number) => (span > 0 ? Math.log2(room / (span * TILE_SIZE)) : Infinity);
  const zoom = Math.floor(Math.min(fits(VIEW_WIDTH - 2 * FIT_PADDING, maxX - minX), fits(VIEW_HEIGHT - 2 * FIT_PADDING, maxY - minY), FIT_MAX_ZOOM));
  return clampViewport({ zoom: Math.max(MIN_ZOOM, zoom), x: (minX + maxX) / 2, y: (minY + maxY) / 2 });
}

/**
 * The longitudes and latitudes the view shows, widened by `margin` map units so that a pin whose
 * centre is just outside still shows its edge; as supercluster's `getClusters` takes them
 * ([west, south, east, north]). An edge of the world in view reads as the pole or the
 * antimeridian itself, so that a terminal at the South Pole (folded onto the edge) is not left out.
 */
export function viewBounds(viewport: Viewport, margin = CLUSTER_RADIUS): [number, number, number, number] {
  const topLeft = viewToWorld(viewport, { vx: -margin, vy: -margin });
  const bottomRight = viewToWorld(viewport, { vx: VIEW_WIDTH + margin, vy: VIEW_HEIGHT + margin });
  const west = topLeft.x <= 0 ? -180 : unproject(topLeft).longitude;
  const east = bottomRight.x >= 1 ? 180 : unproject(bottomRight).longitude;
  const north = topLeft.y <= 0 ? 90 : unproject(topLeft).latitude;
  const south = bottomRight.y >= 1 ? -90 : unproject(bottomRight).latitude;
  return [west, south, east, north];
}

/** The SVG transform that draws zoom-0 world units (TILE_SIZE wide) at the viewport. */
export function worldTransform(viewport: Viewport): string {
  const size = worldSize(viewport.zoom);
  const scale = 2 ** viewport.zoom;
  return `translate(${round(VIEW_WIDTH / 2 - viewport.x * size)} ${round(VIEW_HEIGHT / 2 - viewport.y * size)}) scale(${scale})`;
}

const round = (n: number, places = 2) => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

// ---- The base map --------------------------------------------------------------------------------

type Position = number[];
/** The GeoJSON a base map's land comes as (topojson-client's `feature`): polygons, nested as they come. */
export type LandGeoJson =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: LandGeoJson[] }
  | { type: 'Feature'; geometry: LandGeoJson | null }
  | { type: 'FeatureCollection'; features: LandGeoJson[] }
  | { type: string };

/**
 * The SVG path of the land's polygons in zoom-0 world units, drawn once: the page scales and moves
 * it with `worldTransform` instead of projecting the coastline again at every zoom or drag.
 */
export function landPath(geo: LandGeoJson): string {
  const rings: Position[][] = [];
  const collect = (g: LandGeoJson | null): void => {
    if (!g) return;
    if (g.type === 'Polygon' && 'coordinates' in g) rings.push(...(g.coordinates as Position[][]));
    else if (g.type === 'MultiPolygon' && 'coordinates' in g) for (const polygon of g.coordinates as Position[][][]) rings.push(...polygon);
    else if (g.type === 'GeometryCollection' && 'geometries' in g) g.geometries.forEach(collect);
    else if (g.type === 'Feature' && 'geometry' in g) collect(g.geometry);
    else if (g.type === 'FeatureCollection' && 'features' in g) g.features.forEach(collect);
  };
  collect(geo);
  const draw = (part: Position[]) =>
    part
      .map(([longitude = 0, latitude = 0], i) => {
        const { x, y } = project(longitude, latitude);
        return `${i === 0 ? 'M' : 'L'}${round(x * TILE_SIZE)},${round(y * TILE_SIZE)}`;
      })
      .join('');
  return rings
    .filter((ring) => ring.length >= 3)
    .map((ring) => {
      const parts = antimeridianParts(ring);
      // A whole ring is closed; the parts of a cut one are left open, so that the coast is not
      // drawn along the cut (the fill still closes them, along the world's edge).
      return parts.length === 1 ? `${draw(parts[0]!)}Z` : parts.map(draw).join('');
    })
    .join('');
}

/**
 * A ring that crosses the antimeridian (Russia's far east, Fiji, Antarctica) jumps from 180° to
 * -180°: drawn as it is, that jump is a line across the whole world. Cut at each jump instead,
 * into parts that each begin and end on the world's edge.
 */
function antimeridianParts(ring: Position[]): Position[][] {
  const open = ring.length > 1 && ring[0]![0] === ring.at(-1)![0] && ring[0]![1] === ring.at(-1)![1] ? ring.slice(0, -1) : ring;
  const jumpsBefore = (i: number) => Math.abs((open[i]![0] ?? 0) - (open[(i - 1 + open.length) % open.length]![0] ?? 0)) > 180;
  const first = open.findIndex((_, i) => jumpsBefore(i));
  if (first < 0) return [ring];
  const parts: Position[][] = [];
  for (let k = 0; k < open.length; k++) {
    const i = (first + k) % open.length;
    if (k === 0 || jumpsBefore(i)) parts.push([]);
    parts.at(-1)!.push(open[i]!);
  }
  return parts.filter((part) => part.length >= 2);
}

// ---- The fleet's points --------------------------------------------------------------------------

export interface FleetPointProperties {
  userTerminalId: string;
  condition: TerminalCondition;
}

export type FleetPoint = Feature<Point, FleetPointProperties>;

/**
 * The located terminals as GeoJSON points for supercluster, one per terminal. A position no map
 * can place (missing, out of range, or the 0,0 a lost address often becomes) is left out here and
 * counted with the terminals without a location (`unplacedCount`), never drawn off the coast of
 * Africa.
 */
export function fleetPoints(map: FleetMap): FleetPoint[] {
  const { userTerminalIds, latitudes, longitudes, conditions } = map.located;
  return userTerminalIds.flatMap((userTerminalId, i): FleetPoint[] => {
    const latitude = latitudes[i] ?? null;
    const longitude = longitudes[i] ?? null;
    if (latitude === null || longitude === null || !isPlaceable(latitude, longitude)) return [];
    return [{ type: 'Feature', geometry: { type: 'Point', coordinates: [longitude, latitude] }, properties: { userTerminalId, condition: conditionAt(conditions[i] ?? -1) } }];
  });
}

/** The terminals the map cannot place: those the server sent without a location, and any it sent with one no map can use. */
export function unplacedCount(map: FleetMap): number {
  const { userTerminalIds, latitudes, longitudes } = map.located;
  const badlyPlaced = userTerminalIds.filter((_, i) => !isPlaceable(latitudes[i] ?? null, longitudes[i] ?? null)).length;
  return map.unlocated.total + badlyPlaced;
}

export const worldPointOf = (point: FleetPoint): WorldPoint => project(point.geometry.coordinates[0]!, point.geometry.coordinates[1]!);

export type ConditionCounts = Record<TerminalCondition, number>;

export const noCounts = (): ConditionCounts => ({ active: 0, warning: 0, maintenance: 0, inactive: 0 });

/** supercluster's `map`: what one terminal adds to the cluster it joins. */
export const countsOfPoint = (properties: FleetPointProperties): ConditionCounts => ({ ...noCounts(), [properties.condition]: 1 });

/** supercluster's `reduce`: a cluster's counts are its members'. */
export function addCounts(into: ConditionCounts, more: Readonly<ConditionCounts>): void {
  for (const condition of TERMINAL_CONDITIONS) into[condition] += more[condition];
}

export function countConditions(points: readonly FleetPoint[]): ConditionCounts {
  const counts = noCounts();
  for (const point of points) counts[point.properties.condition] += 1;
  return counts;
}

// ---- How a status looks ----------------------------------------------------------------------------

export const CONDITION_LABELS: Readonly<Record<TerminalCondition, string>> = {
  active: 'Active',
  warning: 'Warning',
  maintenance: 'Maintenance',
  inactive: 'Inactive',
};

/**
 * The terminals page's colours (src/ui/terminals/terminals.css), with one change: Maintenance is
 * the danger colour, not Warning's, because on a map the two would otherwise look alike. Theme
 * tokens, so the dark theme has its own.
 */
export const CONDITION_COLOURS: Readonly<Record<TerminalCondition, string>> = {
  active: 'var(--success-text)',
  warning: 'var(--warning-text)',
  maintenance: 'var(--danger-text)',
  inactive: 'var(--neutral-text)',
};

/** A shape per status as well, so that the map reads without telling colours apart. */
export type MarkShape = 'circle' | 'triangle' | 'diamond' | 'ring';
export const CONDITION_SHAPES: Readonly<Record<TerminalCondition, MarkShape>> = {
  active: 'circle',
  warning: 'triangle',
  maintenance: 'diamond',
  inactive: 'ring',
};

export const conditionColour = (condition: TerminalCondition): string => CONDITION_COLOURS[condition];

/** A pin's outline around (0, 0), `size` map units across. A ring is a circle drawn unfilled. */
export function markPath(shape: MarkShape, size: number): string {
  const r = size / 2;
  switch (shape) {
    case 'circle':
    case 'ring':
      return `M${-r},0A${r},${r} 0 1,0 ${r},0A${r},${r} 0 1,0 ${-r},0Z`;
    case 'triangle': {
      // The same area as the circle, its centre of mass on the point.
      const side = size * 1.35;
      const height = (side * Math.sqrt(3)) / 2;
      return `M0,${round(-(2 * height) / 3)}L${round(side / 2)},${round(height / 3)}L${round(-side / 2)},${round(height / 3)}Z`;
    }
    case 'diamond': {
      const d = round(r * 1.25);
      return `M0,${-d}L${d},0L0,${d}L${-d},0Z`;
    }
  }
}

/** A cluster's ring: one arc per status present, in TERMINAL_CONDITIONS order, their lengths its shares. */
export function clusterSegments(counts: Readonly<ConditionCounts>, circumference: number): { condition: TerminalCondition; length: number; offset: number }[] {
  const total = TERMINAL_CONDITIONS.reduce((sum, c) => sum + counts[c], 0);
  if (total === 0) return [];
  let offset = 0;
  return TERMINAL_CONDITIONS.filter((c) => counts[c] > 0).map((condition) => {
    const length = (counts[condition] / total) * circumference;
    const segment = { condition, length, offset };
    offset += length;
    return segment;
  });
}

/** A cluster's radius in map units: it grows with the count, slowly. */
export const clusterRadius = (count: number): number => round(14 + 5 * Math.log10(Math.max(1, count)), 1);

// ---- Words ---------------------------------------------------------------------------------------

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export const FLEET_MAP_TEXTS = {
  mapLabel: 'Fleet map',
  loading: 'Loading the fleet...',
  loadError: 'Could not load the fleet map',
  empty: 'No terminals match the filter',
  subtitle: 'Terminals by their service address',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  resetView: 'Show the whole fleet',
  panLeft: 'Pan west',
  panRight: 'Pan east',
  panUp: 'Pan north',
  panDown: 'Pan south',
  legend: 'Status',
  statusFilter: 'Status filter',
  allStatuses: 'All statuses',
  customerFilter: 'Customer filter',
  allCustomers: 'All customers',
  customerSearch: 'Search customers',
  customersNone: 'No customers found',
  customersSearching: 'Searching...',
  unlocatedHint: 'They are not on the map: their service address has no coordinates.',
  sharedSpot: (n: number) => `${plural(n, 'terminal', 'terminals')} at one spot`,
  closeShared: 'Close the list',
  placed: (n: number) => `${plural(n, 'terminal', 'terminals')} on the map`,
  unlocated: (n: number) => `${plural(n, 'terminal has', 'terminals have')} no location`,
  unlocatedListed: (listed: number) => `The first ${listed.toLocaleString('en-US')} are listed.`,
} as const;

/** A pin's name for a screen reader and its tooltip: which terminal, and its status. */
export const pinLabel = (name: string, condition: TerminalCondition): string => `${name}, ${CONDITION_LABELS[condition]}`;

/** A cluster's name: how many, of which status, and what a click does. */
export function clusterLabel(counts: Readonly<ConditionCounts>, expandable: boolean): string {
  const total = TERMINAL_CONDITIONS.reduce((sum, c) => sum + counts[c], 0);
  const parts = TERMINAL_CONDITIONS.filter((c) => counts[c] > 0).map((c) => `${counts[c].toLocaleString('en-US')} ${CONDITION_LABELS[c].toLowerCase()}`);
  return `${plural(total, 'terminal', 'terminals')}: ${parts.join(', ')}. ${expandable ? 'Zoom in' : 'List them'}`;
}

// ---- The address ---------------------------------------------------------------------------------

/**
 * `/terminals/map?customer=<uuid>&status=warning&account=2`: the filter (defaults left out). The
 * route tree reads it (src/routes/router.tsx), so that reading an address never loads this module.
 */
export interface FleetMapSearch {
  customer?: string;
  status?: TerminalCondition;
  account?: number;
}

export function filterOfSearch(search: FleetMapSearch): FleetMapFilter {
  return {
    ...(search.customer ? { customerId: search.customer } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.account !== undefined ? { accountId: search.account } : {}),
  };
}

export const searchOfFilter = (filter: FleetMapFilter): FleetMapSearch => ({ customer: filter.customerId, status: filter.status, account: filter.accountId });

export const sameFilter = (a: FleetMapFilter, b: FleetMapFilter): boolean =>
  (a.customerId ?? null) === (b.customerId ?? null) && (a.status ?? null) === (b.status ?? null) && (a.accountId ?? null) === (b.accountId ?? null);

/**
 * The terminals page with the terminal's details open (`?terminal=<id>` is URL state there). An id
 * the router would read back as JSON (digits, `1e5`, `true`) is quoted, so it reads back as the same string.
 */
export function terminalUrl(userTerminalId: string): string {
  if (!TERMINAL_ID_PATTERN.test(userTerminalId)) return '/terminals';
  let value = userTerminalId;
  try {
    JSON.parse(userTerminalId);
    value = JSON.stringify(userTerminalId);
  } catch {
    // Not JSON: the router reads it back as the string it is.
  }
  return `/terminals?terminal=${encodeURIComponent(value)}`;
}
