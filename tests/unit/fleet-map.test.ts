// The fleet map's arithmetic (src/domain/fleet-map.ts) and the reading of its answer
// (src/api/fleet-map.ts): the projection, the view's zoom and pan, the points supercluster
// clusters and the counts its clusters carry, the looks of each status, and the map's address.
import Supercluster from 'supercluster';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import land110m from 'world-atlas/land-110m.json';
import { describe, expect, it } from 'vitest';
import { fleetMapQuery, normaliseFleetMap } from '../../src/api/fleet-map';
import {
  CLUSTER_OPTIONS,
  CONDITION_COLOURS,
  CONDITION_SHAPES,
  FIT_MAX_ZOOM,
  FLEET_MAP_TEXTS,
  MAX_ZOOM,
  MIN_ZOOM,
  VIEW_HEIGHT,
  VIEW_WIDTH,
  WORLD_VIEWPORT,
  addCounts,
  centreOn,
  clampViewport,
  clusterLabel,
  clusterOptions,
  clusterSegments,
  countConditions,
  countsOfPoint,
  filterOfSearch,
  fitViewport,
  fleetPoints,
  landPath,
  markPath,
  markScale,
  MAX_MARK_SCALE,
  CLUSTER_RADIUS,
  noCounts,
  panBy,
  pinLabel,
  project,
  sameFilter,
  searchOfFilter,
  terminalUrl,
  unplacedCount,
  unproject,
  viewBounds,
  viewToWorld,
  worldPointOf,
  worldSize,
  worldToView,
  zoomAt,
  type ConditionCounts,
  type FleetPointProperties,
  type LandGeoJson,
  type Viewport,
} from '../../src/domain/fleet-map';
import { TERMINAL_CONDITIONS, type TerminalCondition } from '../../src/domain/terminals';
import { fleetMapOf, type LocatedTerminal } from '../fixtures/fleet-map';

const wire = fleetMapOf;

const at = (id: string, latitude: number, longitude: number, condition: TerminalCondition = 'active'): LocatedTerminal => ({ id, latitude, longitude, condition });

/** Ten terminals a couple of kilometres apart in Rotterdam's port, and five alone on other continents. */
const PORT = Array.from({ length: 10 }, (_, i) => at(`UT-PORT-${i}`, 51.9 + (i % 5) * 0.02, 4.4 + Math.floor(i / 5) * 0.03, TERMINAL_CONDITIONS[i % 4]!));
const SPREAD = [at('UT-ANC', 61.2, -149.9), at('UT-SYD', -33.87, 151.2, 'warning'), at('UT-BUE', -34.6, -58.4, 'maintenance'), at('UT-NBO', -1.29, 36.82, 'inactive'), at('UT-TYO', 35.68, 139.69)];

function clusterIndex(located: LocatedTerminal[]) {
  const index = new Supercluster<FleetPointProperties, ConditionCounts>({ ...CLUSTER_OPTIONS, map: countsOfPoint, reduce: addCounts });
  return index.load(fleetPoints(wire(located)));
}

/** What the map shows at a viewport: one entry per pin or cluster, with how many terminals it stands for. */
function shown(index: ReturnType<typeof clusterIndex>, viewport: Viewport) {
  return index.getClusters(viewBounds(viewport), viewport.zoom).map((f) => {
    const p = f.properties as Partial<ConditionCounts & { cluster: boolean; point_count: number }> & Partial<FleetPointProperties>;
    return p.cluster ? { count: p.point_count!, counts: TERMINAL_CONDITIONS.map((c) => p[c]!) } : { count: 1, counts: TERMINAL_CONDITIONS.map((c) => (c === p.condition ? 1 : 0)) };
  });
}

describe('the projection', () => {
  it('puts the equator and the prime meridian at the middle, the antimeridian at the edges', () => {
    expect(project(0, 0)).toEqual({ x: 0.5, y: 0.5 });
    expect(project(-180, 0).x).toBe(0);
    expect(project(180, 0).x).toBe(1);
    expect(project(0, 45).y).toBeLessThan(0.5);
    expect(project(0, -45).y).toBeGreaterThan(0.5);
  });

  it('reads back the longitude and latitude it was given', () => {
    for (const [longitude, latitude] of [[4.48, 51.92], [-149.9, 61.2], [151.2, -33.87], [-58.4, -34.6], [179.99, 84]]) {
      const back = unproject(project(longitude!, latitude!));
      expect(back.longitude).toBeCloseTo(longitude!, 9);
      expect(back.latitude).toBeCloseTo(latitude!, 9);
    }
  });

  it('folds the poles onto the edges of the world instead of off them, as supercluster does', () => {
    expect(project(0, 90).y).toBe(0);
    expect(project(0, -90).y).toBe(1);
    expect(unproject({ x: 0.5, y: 0 }).latitude).toBeCloseTo(85.0511, 4);
  });

  it('places a lone terminal where supercluster hands it back', () => {
    const index = clusterIndex([at('UT-ONE', -22.9, -43.2)]);
    const [only] = index.getClusters([-180, -90, 180, 90], 3);
    const [longitude, latitude] = only!.geometry.coordinates as [number, number];
    expect(project(longitude, latitude).x).toBeCloseTo(project(-43.2, -22.9).x, 9);
    expect(project(longitude, latitude).y).toBeCloseTo(project(-43.2, -22.9).y, 9);
  });
});

describe('the view', () => {
  it('keeps the zoom whole and in range, and the world across the view', () => {
    expect(clampViewport({ zoom: 2.4, x: 0.5, y: 0.5 }).zoom).toBe(2);
    expect(clampViewport({ zoom: -3, x: 0.5, y: 0.5 }).zoom).toBe(MIN_ZOOM);
    expect(clampViewport({ zoom: 99, x: 0.5, y: 0.5 }).zoom).toBe(MAX_ZOOM);
    // At zoom 0 the world is as wide as the view: it cannot move sideways, only up and down.
    expect(clampViewport({ zoom: 0, x: 0.1, y: 0.5 }).x).toBe(0.5);
    expect(clampViewport({ zoom: 0, x: 0.5, y: 0 }).y).toBeCloseTo(VIEW_HEIGHT / 2 / worldSize(0), 9);
    // Deeper, the centre stops where the view's edge meets the world's.
    expect(clampViewport({ zoom: 3, x: -1, y: 2 })).toEqual({ zoom: 3, x: VIEW_WIDTH / 2 / worldSize(3), y: 1 - VIEW_HEIGHT / 2 / worldSize(3) });
  });

  it('opens on the whole world, a little north of the equator', () => {
    expect(WORLD_VIEWPORT.zoom).toBe(0);
    expect(WORLD_VIEWPORT.y).toBeLessThan(0.5);
    const [west, south, east, north] = viewBounds(WORLD_VIEWPORT, 0);
    expect([west, east]).toEqual([-180, 180]);
    // Svalbard (78° N) and Cape Horn (56° S) are in view.
    expect(north).toBeGreaterThan(78);
    expect(south).toBeLessThan(-56);
  });

  it('converts between the view and the world both ways', () => {
    const viewport = clampViewport({ zoom: 5, x: 0.52, y: 0.33 });
    const point = { vx: 123, vy: 456 };
    const back = worldToView(viewport, viewToWorld(viewport, point));
    expect(back.vx).toBeCloseTo(point.vx, 6);
    expect(back.vy).toBeCloseTo(point.vy, 6);
    expect(worldToView(viewport, viewport)).toEqual({ vx: VIEW_WIDTH / 2, vy: VIEW_HEIGHT / 2 });
  });

  it('zooms at the pointer: the place under it stays under it', () => {
    const start = clampViewport({ zoom: 4, x: 0.51, y: 0.33 });
    const pointer = { vx: 700, vy: 150 };
    const under = viewToWorld(start, pointer);
    const zoomed = zoomAt(start, 5, pointer);
    expect(zoomed.zoom).toBe(5);
    const after = worldToView(zoomed, under);
    expect(after.vx).toBeCloseTo(pointer.vx, 6);
    expect(after.vy).toBeCloseTo(pointer.vy, 6);
    // Without a pointer it zooms at the centre, and never past the limits.
    expect(zoomAt(start, 3)).toEqual({ ...start, zoom: 3 });
    expect(zoomAt(clampViewport({ zoom: MAX_ZOOM, x: 0.5, y: 0.5 }), MAX_ZOOM + 1).zoom).toBe(MAX_ZOOM);
  });

  it('pans with the drag: what was under the pointer follows it', () => {
    const start = clampViewport({ zoom: 4, x: 0.5, y: 0.4 });
    const under = viewToWorld(start, { vx: 300, vy: 300 });
    const moved = panBy(start, 100, -50);
    const after = worldToView(moved, under);
    expect(after.vx).toBeCloseTo(400, 6);
    expect(after.vy).toBeCloseTo(250, 6);
    // Not past the world's edge.
    expect(panBy(start, 1e9, 0).x).toBe(VIEW_WIDTH / 2 / worldSize(4));
  });

  it('fits the fleet: the whole world for one spread over it, the coast for one customer, the world for none', () => {
    expect(fitViewport([])).toEqual(WORLD_VIEWPORT);
    const world = [...PORT, ...SPREAD].map((t) => project(t.longitude, t.latitude));
    expect(fitViewport(world).zoom).toBe(0);

    const brazil = [at('a', -3.1, -60.0), at('b', -23.5, -46.6), at('c', -30.0, -51.2), at('d', -8.05, -34.9)].map((t) => project(t.longitude, t.latitude));
    const fitted = fitViewport(brazil);
    expect(fitted.zoom).toBeGreaterThan(1);
    expect(fitted.zoom).toBeLessThanOrEqual(FIT_MAX_ZOOM);
    for (const point of brazil) {
      const { vx, vy } = worldToView(fitted, point);
      expect(vx).toBeGreaterThan(0);
      expect(vx).toBeLessThan(VIEW_WIDTH);
      expect(vy).toBeGreaterThan(0);
      expect(vy).toBeLessThan(VIEW_HEIGHT);
    }
    // One spot: as close as a fit goes, centred on it.
    const one = project(4.48, 51.92);
    expect(fitViewport([one])).toEqual(centreOn(one, FIT_MAX_ZOOM));
  });

  it('asks supercluster for what is in view, the edges of the world reading as the poles and the antimeridian', () => {
    const paris = clampViewport({ zoom: 6, ...project(2.35, 48.86) });
    const [west, south, east, north] = viewBounds(paris);
    expect(west).toBeLessThan(2.35);
    expect(east).toBeGreaterThan(2.35);
    expect(south).toBeLessThan(48.86);
    expect(north).toBeGreaterThan(48.86);
    expect(east).toBeLessThan(20);
    // A terminal at the South Pole folds onto the bottom edge; with that edge in view it is asked for.
    const bottom = clampViewport({ zoom: 2, x: 0.5, y: 1 });
    expect(viewBounds(bottom)[1]).toBe(-90);
    expect(clusterIndex([at('UT-POLE', -90, 0)]).getClusters(viewBounds(bottom), 2)).toHaveLength(1);
  });
});

describe('the fleet as points', () => {
  it('makes one GeoJSON point per located terminal, with its status', () => {
    const points = fleetPoints(wire(SPREAD));
    expect(points).toHaveLength(5);
    expect(points[1]).toEqual({ type: 'Feature', geometry: { type: 'Point', coordinates: [151.2, -33.87] }, properties: { userTerminalId: 'UT-SYD', condition: 'warning' } });
    expect(countConditions(points)).toEqual({ active: 2, warning: 1, maintenance: 1, inactive: 1 });
    expect(worldPointOf(points[0]!)).toEqual(project(-149.9, 61.2));
  });

  it('never places a terminal at 0,0 or off the world: those count as without a location', () => {
    const map = wire([...SPREAD, at('UT-ZERO', 0, 0), at('UT-FAR', 95, 10)], { total: 2, terminals: [] });
    expect(fleetPoints(map).map((p) => p.properties.userTerminalId)).not.toContain('UT-ZERO');
    expect(fleetPoints(map)).toHaveLength(5);
    expect(unplacedCount(map)).toBe(4);
  });

  it('clusters where dense, and every terminal is in exactly one pin or cluster at every zoom', () => {
    const index = clusterIndex([...PORT, ...SPREAD]);
    for (let zoom = MIN_ZOOM; zoom <= MAX_ZOOM; zoom++) {
      const items = shown(index, clampViewport({ zoom, x: 0.5, y: 0.5 }));
      const whole = index.getClusters([-180, -90, 180, 90], zoom);
      expect(whole.reduce((sum, f) => sum + ((f.properties as { point_count?: number }).point_count ?? 1), 0), `zoom ${zoom}`).toBe(15);
      // A cluster's statuses add up to its count.
      for (const item of items) expect(item.counts.reduce((a, b) => a + b, 0)).toBe(item.count);
    }
    // On the whole world the port is one cluster of ten with its statuses; the rest stand alone.
    const world = shown(index, WORLD_VIEWPORT);
    expect(world.filter((i) => i.count === 1)).toHaveLength(5);
    expect(world.find((i) => i.count === 10)?.counts).toEqual([3, 3, 2, 2]);
  });

  it('parts a cluster by zooming in, but not terminals at one spot, which stay one cluster to list', () => {
    const index = clusterIndex(PORT);
    const [port] = index.getClusters([-180, -90, 180, 90], 0);
    const clusterId = (port!.properties as { cluster_id: number }).cluster_id;
    const expansion = index.getClusterExpansionZoom(clusterId);
    expect(expansion).toBeLessThanOrEqual(MAX_ZOOM);
    expect(index.getClusters([-180, -90, 180, 90], expansion).length).toBeGreaterThan(1);

    const spot = clusterIndex([at('UT-RIG-1', 57.5, 1.75), at('UT-RIG-2', 57.5, 1.75), at('UT-RIG-3', 57.5001, 1.7501)]);
    const [rig] = spot.getClusters([-180, -90, 180, 90], MAX_ZOOM);
    expect((rig!.properties as { point_count: number }).point_count).toBe(3);
    expect(spot.getClusterExpansionZoom((rig!.properties as { cluster_id: number }).cluster_id)).toBeGreaterThan(MAX_ZOOM);
  });

  it('sums statuses into a cluster as supercluster merges them', () => {
    const into = countsOfPoint({ userTerminalId: 'a', condition: 'warning' });
    addCounts(into, { ...noCounts(), warning: 2, inactive: 1 });
    expect(into).toEqual({ active: 0, warning: 3, maintenance: 0, inactive: 1 });
  });
});

describe('how a status looks', () => {
  it('gives each status its own colour (a theme token) and its own shape', () => {
    expect(new Set(Object.values(CONDITION_COLOURS)).size).toBe(4);
    expect(new Set(Object.values(CONDITION_SHAPES)).size).toBe(4);
    expect(CONDITION_COLOURS.active).toBe('var(--success-text)');
    expect(CONDITION_COLOURS.warning).toBe('var(--warning-text)');
    for (const colour of Object.values(CONDITION_COLOURS)) expect(colour).toMatch(/^var\(--[a-z-]+\)$/);
  });

  it('grows marks and the cluster radius where the map is drawn narrow, so that they keep their size on screen', () => {
    expect(markScale(0)).toBe(1);
    expect(markScale(VIEW_WIDTH)).toBe(1);
    expect(markScale(1400)).toBe(1);
    expect(markScale(VIEW_WIDTH / 2)).toBe(2);
    // In quarter steps, never below what keeps the size, never past the most.
    expect(markScale(316)).toBe(3);
    expect(markScale(600)).toBe(1.75);
    expect(markScale(100)).toBe(MAX_MARK_SCALE);
    expect(clusterOptions(2).radius).toBe(CLUSTER_RADIUS * 2);
    expect(clusterOptions()).toEqual(CLUSTER_OPTIONS);
  });

  it('draws each mark as a closed path around its point', () => {
    for (const shape of Object.values(CONDITION_SHAPES)) expect(markPath(shape, 12)).toMatch(/^M.*Z$/);
  });

  it('rings a cluster with one arc per status present, their lengths its shares', () => {
    const segments = clusterSegments({ active: 6, warning: 0, maintenance: 1, inactive: 3 }, 100);
    expect(segments).toEqual([
      { condition: 'active', length: 60, offset: 0 },
      { condition: 'maintenance', length: 10, offset: 60 },
      { condition: 'inactive', length: 30, offset: 70 },
    ]);
    expect(clusterSegments(noCounts(), 100)).toEqual([]);
  });

  it('names pins and clusters for a screen reader', () => {
    expect(pinLabel('UT-SYD', 'warning')).toBe('UT-SYD, Warning');
    expect(clusterLabel({ active: 10, warning: 2, maintenance: 0, inactive: 0 }, true)).toBe('12 terminals: 10 active, 2 warning. Zoom in');
    expect(clusterLabel({ active: 0, warning: 0, maintenance: 1, inactive: 2 }, false)).toBe('3 terminals: 1 maintenance, 2 inactive. List them');
    expect(FLEET_MAP_TEXTS.unlocated(1)).toBe('1 terminal has no location');
    expect(FLEET_MAP_TEXTS.unlocated(1200)).toBe('1,200 terminals have no location');
  });
});

describe('the base map', () => {
  it('draws polygons and multipolygons as closed rings in zoom-0 world units', () => {
    const square: LandGeoJson = { type: 'Polygon', coordinates: [[[-180, 0], [0, 0], [0, 0.0001], [-180, 0]]] };
    expect(landPath(square)).toBe(`M0,${VIEW_WIDTH / 2}L${VIEW_WIDTH / 2},${VIEW_WIDTH / 2}L${VIEW_WIDTH / 2},${VIEW_WIDTH / 2}L0,${VIEW_WIDTH / 2}Z`);
    const nested: LandGeoJson = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [square.coordinates, square.coordinates] } }] };
    expect(landPath(nested).match(/Z/g)).toHaveLength(2);
  });

  it('cuts a ring that crosses the antimeridian instead of drawing a line across the world', () => {
    // An island over 180°, as Natural Earth has Chukotka and Fiji: two jumps between 180° and -180°.
    const island: LandGeoJson = {
      type: 'Polygon',
      coordinates: [[[170, 50], [180, 50], [-180, 50], [-170, 50], [-170, 60], [-180, 60], [180, 60], [170, 60], [170, 50]]],
    };
    const path = landPath(island);
    expect(path).not.toContain('Z');
    const parts = path.split('M').filter(Boolean).map((part) => part.split('L').map((point) => Number(point.split(',')[0])));
    expect(parts).toHaveLength(2);
    for (const xs of parts) for (let i = 1; i < xs.length; i++) expect(Math.abs(xs[i]! - xs[i - 1]!)).toBeLessThan(VIEW_WIDTH / 2);
    // Each part sits on its own side of the world.
    expect(parts.map((xs) => Math.max(...xs) < VIEW_WIDTH / 2)).toEqual([true, false]);
  });

  it("draws world-atlas's 110m land from the package, every coordinate on the world", () => {
    const atlas = land110m as unknown as Topology;
    const path = landPath(feature(atlas, atlas.objects.land!) as LandGeoJson);
    expect(path.match(/Z/g)!.length).toBeGreaterThan(100);
    const numbers = path.match(/-?\d+(\.\d+)?/g)!.map(Number);
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(VIEW_WIDTH);
    // No line across the world: Russia's far east, Fiji and Antarctica are cut at 180°.
    const widest = Math.max(...path.split('M').filter(Boolean).flatMap((part) => {
      const xs = part.replace(/Z$/, '').split('L').map((point) => Number(point.split(',')[0]));
      return xs.slice(1).map((x, i) => Math.abs(x - xs[i]!));
    }));
    expect(widest).toBeLessThan(VIEW_WIDTH / 4);
  });
});

describe('the address', () => {
  it('turns the address into the filter the server takes, and back', () => {
    const uuid = '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f';
    expect(filterOfSearch({ customer: uuid, status: 'inactive', account: 3 })).toEqual({ customerId: uuid, status: 'inactive', accountId: 3 });
    expect(filterOfSearch({})).toEqual({});
    expect(searchOfFilter({ status: 'maintenance' })).toEqual({ customer: undefined, status: 'maintenance', account: undefined });
  });

  it('compares filters by what they ask, whatever keys are left out', () => {
    expect(sameFilter({}, { status: undefined })).toBe(true);
    expect(sameFilter({ status: 'warning' }, { status: 'warning' })).toBe(true);
    expect(sameFilter({ status: 'warning' }, {})).toBe(false);
    expect(sameFilter({ accountId: 1 }, { accountId: 2 })).toBe(false);
  });

  it('links a pin to the terminals page with its details open, an id of digits quoted so it reads back as text', () => {
    expect(terminalUrl('UT-SYD')).toBe('/terminals?terminal=UT-SYD');
    expect(terminalUrl('0123456789')).toBe('/terminals?terminal=0123456789');
    expect(terminalUrl('123456')).toBe(`/terminals?terminal=${encodeURIComponent('"123456"')}`);
    expect(terminalUrl('not an id')).toBe('/terminals');
  });
});

describe('the answer of GET /fleet/map', () => {
  it('asks with the filter in snake case, leaving out what is open', () => {
    expect(fleetMapQuery({ customerId: 'c-1', status: 'warning', accountId: 2 })).toEqual({ customer_id: 'c-1', status: 'warning', account_id: 2 });
    expect(fleetMapQuery({})).toEqual({});
  });

  it('reads the columns, coordinates from ten-thousandths into degrees, moving a terminal with no usable position to those without a location', () => {
    const raw = {
      generatedAt: '2026-03-01T12:00:00.000Z',
      located: { userTerminalIds: ['UT-A', 'UT-B', 'UT-C', '', 'UT-D'], latitudesE4: [100_000, 0, 200_005, 50_000, 910_000], longitudesE4: [200_000, 0, -300_000, 50_000, 0], conditions: [1, 0, 9, 0, 0] },
      unlocated: { total: 3, terminals: [{ userTerminalId: 'UT-X', nickname: 'Aurora', serviceLineNumber: 'AST-1', condition: 'warning' }, { nickname: 'no id' }] },
    };
    expect(normaliseFleetMap(raw)).toEqual({
      generatedAt: '2026-03-01T12:00:00.000Z',
      // An index this client does not know reads as inactive.
      located: { userTerminalIds: ['UT-A', 'UT-C'], latitudes: [10, 20.0005], longitudes: [20, -30], conditions: [1, 3] },
      unlocated: { total: 5, terminals: [{ userTerminalId: 'UT-X', nickname: 'Aurora', serviceLineNumber: 'AST-1', condition: 'warning' }] },
    });
  });

  it('refuses columns that do not line up: one off would move every terminal to its neighbour', () => {
    expect(normaliseFleetMap({ located: { userTerminalIds: ['UT-A', 'UT-B'], latitudesE4: [1], longitudesE4: [1, 2], conditions: [0, 0] } })).toBeNull();
    // An answer in the former shape (degrees under other names) is no answer either.
    expect(normaliseFleetMap({ located: { userTerminalIds: ['UT-A'], latitudes: [1], longitudes: [2], conditions: [0] } })).toBeNull();
    expect(normaliseFleetMap({ located: null })).toBeNull();
    expect(normaliseFleetMap([])).toBeNull();
  });
});
