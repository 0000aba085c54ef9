//! The mover against seed 000's own routine, and the behaviours the issue lists, each with
//! exact fixed-point positions and flags.

mod reference;

use super::*;
use crate::collide::map::CollisionMap;
use crate::fixed::{FX_ONE, fx_floor};

/// Slope characters for ASCII maps.
const KEY: &[(char, Tile)] = &[
    ('1', Tile::Slope { left: 0, right: 4 }),
    ('2', Tile::Slope { left: 4, right: 8 }),
    ('3', Tile::Slope { left: 8, right: 12 }),
    (
        '4',
        Tile::Slope {
            left: 12,
            right: 16,
        },
    ),
    (
        '5',
        Tile::Slope {
            left: 16,
            right: 12,
        },
    ),
    ('6', Tile::Slope { left: 12, right: 8 }),
    ('7', Tile::Slope { left: 8, right: 4 }),
    ('8', Tile::Slope { left: 4, right: 0 }),
    ('/', Tile::Slope { left: 0, right: 16 }),
    ('\\', Tile::Slope { left: 16, right: 0 }),
    ('a', Tile::Slope { left: 0, right: 8 }),
    ('b', Tile::Slope { left: 8, right: 16 }),
    ('c', Tile::Slope { left: 16, right: 8 }),
    ('d', Tile::Slope { left: 8, right: 0 }),
];

fn map(rows: &[&str]) -> CollisionMap {
    CollisionMap::from_ascii(rows, KEY)
}

fn body(x: i32, y: i32, w: i32, h: i32) -> Body {
    Body {
        x: fx(x),
        y: fx(y),
        w,
        h,
        vx: 0,
        vy: 0,
    }
}

fn options(mode: Mode) -> MoveOptions {
    MoveOptions {
        mode,
        ..MoveOptions::default()
    }
}

/// Moves `b` by (vx, vy) px; returns the flags.
fn go(map: &CollisionMap, b: &mut Body, vx: Fx, vy: Fx, opt: &MoveOptions) -> u32 {
    b.vx = vx;
    b.vy = vy;
    move_body(map, b, opt).flags
}

// ---------------------------------------------------------------------------------------
// Seed 000, exactly.

/// A small deterministic generator for the randomised tests.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    fn below(&mut self, n: u32) -> i32 {
        (self.next() % n) as i32
    }
}

fn tile_of_code(code: u8) -> Tile {
    match code {
        1 => Tile::Solid,
        3 => Tile::Ladder,
        4 => Tile::Ice,
        0x8..=0xB => {
            let part = code & 3;
            Tile::Slope {
                left: part * 4,
                right: part * 4 + 4,
            }
        }
        0xC..=0xF => {
            let part = code & 3;
            Tile::Slope {
                left: 16 - part * 4,
                right: 12 - part * 4,
            }
        }
        _ => Tile::Empty,
    }
}

#[test]
fn equals_seed_000_for_every_input_it_supports() {
    let mut rng = Lcg(0x5EED_0000);
    let codes = [0u8, 0, 0, 0, 1, 1, 3, 4, 8, 9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF];
    let mut compared = 0;
    for _ in 0..300 {
        let (cols, rows) = (10, 9);
        let reference_map = reference::Map {
            cols,
            rows,
            codes: (0..cols * rows)
                .map(|_| codes[rng.below(16) as usize])
                .collect(),
        };
        let mut ours = CollisionMap::new(cols as usize, rows as usize);
        for (i, &code) in reference_map.codes.iter().enumerate() {
            ours.set(i as i32 % cols, i as i32 / cols, tile_of_code(code));
        }
        for _ in 0..400 {
            // Inputs the article supports: at most one block per frame on each axis.
            let (w, h) = (2 + rng.below(30), 2 + rng.below(44));
            let x = rng.below((cols * 16 - w) as u32 * 256);
            let y = rng.below((rows * 16) as u32 * 256) - 16 * 256;
            let vx = rng.below(2 * 4096 - 1) - 4095;
            let vy = rng.below(2 * 4096 - 1) - 4095;
            let mode = rng.below(3);
            let mut rc = reference::RectV {
                x,
                y,
                w: w * 256,
                h: h * 256,
                vx,
                vy,
            };
            let expected_flags = reference::move2(&reference_map, &mut rc, mode);
            let mut b = Body {
                x: x << 8,
                y: y << 8,
                w,
                h,
                vx: vx << 8,
                vy: vy << 8,
            };
            let opt = options([Mode::Ground, Mode::Air, Mode::Ladder][mode as usize]);
            let moved = move_body(&ours, &mut b, &opt);
            let case = format!(
                "map {:?} body x={x} y={y} w={w} h={h} vx={vx} vy={vy} mode={mode}",
                reference_map.codes
            );
            assert_eq!(
                (b.x, b.y, b.vx, b.vy),
                (rc.x << 8, rc.y << 8, rc.vx << 8, rc.vy << 8),
                "{case}"
            );
            assert_eq!(moved.flags & 0x3F, expected_flags as u32, "{case}");
            compared += 1;
        }
    }
    assert_eq!(compared, 120_000);
}

// ---------------------------------------------------------------------------------------
// Slopes.

/// The y of the floor surface under x (whole px) in `map`: the top of the first floor from
/// the top of the column.
fn surface(map: &CollisionMap, x: i32) -> Fx {
    let (column, within) = (x.div_euclid(16), x.rem_euclid(16));
    for row in 0..map.rows() {
        match map.get(column, row) {
            Tile::Solid | Tile::Ice => return fx(row * 16),
            Tile::Slope { left, right } => {
                let (l, r) = (i32::from(left), i32::from(right));
                // Heights at whole pixels are exact: (r - l) * within / 16 px.
                let height = fx(l) + (fx(r - l) * within) / 16;
                return fx(row * 16 + 16) - height;
            }
            _ => {}
        }
    }
    panic!("no floor under x = {x}");
}

/// Every seam kind in one terrain: flat, 1:4 up and down, 1:2 up and down, 45 deg up and
/// down, with flat stretches between.
fn hills() -> CollisionMap {
    map(&[
        "..........................................",
        "..........................................",
        "..........................................",
        "................../##\\....................",
        ".............ab#########cd................",
        "......1234###################5678.........",
        "##########################################",
        "##########################################",
    ])
}

fn walk_and_check_every_frame(speed_px: i32, direction: i32) {
    let terrain = hills();
    let (w, h) = (12, 24);
    let start = if direction > 0 { 16 } else { 41 * 16 - w };
    let mut b = body(start, 0, w, h);
    b.y = surface(&terrain, start + w / 2) - fx(h);
    let opt = options(Mode::Ground);
    let gravity = FX_ONE / 4;
    let mut frames = 0;
    loop {
        let center = fx_floor(b.x) + w / 2;
        if !(16..41 * 16).contains(&center) {
            break;
        }
        let flags = go(&terrain, &mut b, fx(speed_px) * direction, gravity, &opt);
        assert_ne!(
            flags & flag::GROUND,
            0,
            "airborne at x = {} (speed {speed_px})",
            fx_floor(b.x)
        );
        assert_eq!(
            flags & (flag::WALL_LEFT | flag::WALL_RIGHT),
            0,
            "stopped at x = {}",
            fx_floor(b.x)
        );
        let feet = b.y + fx(h);
        let center = fx_floor(b.x) + w / 2;
        assert_eq!(
            feet,
            surface(&terrain, center),
            "foot height at centre x = {center} (speed {speed_px})"
        );
        frames += 1;
    }
    assert!(frames >= 600 / speed_px, "walked {frames} frames");
}

#[test]
fn walking_both_ways_over_every_slope_seam_keeps_the_feet_on_the_surface() {
    for speed in [1, 2, 4] {
        walk_and_check_every_frame(speed, 1);
        walk_and_check_every_frame(speed, -1);
    }
}

#[test]
fn slope_flags_name_the_slope() {
    let terrain = hills();
    let mut b = body(6 * 16 + 2, 0, 12, 24);
    b.y = surface(&terrain, 6 * 16 + 8) - fx(24);
    let moved = move_body(&terrain, &mut b, &MoveOptions::default());
    assert_ne!(moved.flags & flag::ON_SLOPE, 0);
    assert_eq!(moved.slope, Some(Tile::Slope { left: 0, right: 4 }));
}

#[test]
fn the_margin_keeps_a_runner_grounded_downhill_only_when_it_is_large_enough() {
    let terrain = map(&[
        "..........",
        "#\\........",
        "##\\.......",
        "###\\......",
        "####\\.....",
        "##########",
    ]);
    let run = |speed: i32, margin: i32| {
        let mut b = body(2, 0, 8, 16);
        b.y = fx(16) - fx(16);
        let opt = MoveOptions {
            margin: fx(margin),
            ..MoveOptions::default()
        };
        (0..40).all(|_| {
            go(&terrain, &mut b, fx(speed), FX_ONE / 4, &opt) & flag::GROUND != 0
                || fx_floor(b.x) > 5 * 16
        })
    };
    assert!(run(4, 4), "4 px/frame down 45 deg with a 4 px margin");
    assert!(!run(6, 4), "6 px/frame outruns a 4 px margin");
    assert!(run(6, 6));
}

#[test]
fn constant_slope_speed_slows_the_run_along_a_45_degree_slope() {
    let terrain = map(&[
        "........", "......./", "....../#", "...../##", "..../###", "########",
    ]);
    let mut b = body(2 * 16, 0, 8, 16);
    b.y = fx(4 * 16 - 16);
    let opt = MoveOptions {
        slope_speed: true,
        ..MoveOptions::default()
    };
    go(&terrain, &mut b, fx(1), FX_ONE / 4, &opt);
    assert_eq!(b.vx, fx(1), "flat ground: full speed");
    let mut b = body(4 * 16 + 4, 0, 8, 16);
    b.y = surface(&terrain, 4 * 16 + 8) - fx(16);
    go(&terrain, &mut b, fx(4), FX_ONE / 4, &opt);
    // 4 / sqrt(2) = 2.828427 px, in 16.16 from integer square roots.
    assert_eq!(b.vx, 185_363);
    assert_eq!(slope_speed_factor(0), 1 << 32);
}

// ---------------------------------------------------------------------------------------
// Ledges, cliffs, seams, tunnelling.

#[test]
fn walking_off_a_cliff_falls() {
    let terrain = map(&["......", "......", "###...", "######"]);
    let mut b = body(16, 16, 12, 16);
    let opt = options(Mode::Ground);
    assert_ne!(
        go(&terrain, &mut b, fx(2), FX_ONE / 4, &opt) & flag::GROUND,
        0
    );
    let mut x_off = None;
    for _ in 0..20 {
        let flags = go(&terrain, &mut b, fx(2), FX_ONE / 4, &opt);
        if flags & flag::GROUND == 0 {
            x_off = Some(fx_floor(b.x));
            break;
        }
    }
    // The body leaves the ledge when its left edge passes the ledge's right edge (x = 48).
    assert_eq!(x_off, Some(48), "falls once nothing is under it");
}

#[test]
fn landing_on_a_ledge_with_one_pixel_holds_and_with_none_falls() {
    let terrain = map(&["......", "......", "......", "##....", "######"]);
    // The ledge's right edge is x = 32. A 12 px body with its left edge at x = 31 overlaps 1 px.
    let mut b = body(31, 28, 12, 16);
    let flags = go(&terrain, &mut b, 0, fx(8), &options(Mode::Air));
    assert_ne!(flags & flag::GROUND, 0);
    assert_eq!(b.y, fx(48 - 16));
    let mut b = body(32, 28, 12, 16);
    let flags = go(&terrain, &mut b, 0, fx(8), &options(Mode::Air));
    assert_eq!(flags & flag::GROUND, 0);
    assert_eq!(b.y, fx(36));
}

#[test]
fn no_seam_snags_on_floors_and_walls_of_separate_tiles() {
    // A floor of separate blocks, approached falling diagonally: no wall flag, lands.
    let terrain = map(&["..........", "..........", "..........", "##########"]);
    let mut b = body(10, 28, 12, 16);
    let flags = go(&terrain, &mut b, fx(7), fx(9), &options(Mode::Air));
    assert_eq!(flags & (flag::WALL_LEFT | flag::WALL_RIGHT), 0);
    assert_ne!(flags & flag::GROUND, 0);
    assert_eq!((b.x, b.y), (fx(17), fx(32)));
    // A wall of separate blocks, approached rising diagonally: stops flush, no ceiling.
    let terrain = map(&["....#", "....#", "....#", "....#", "#####"]);
    let mut b = body(40, 30, 12, 16);
    for _ in 0..4 {
        let flags = go(&terrain, &mut b, fx(5), -fx(3), &options(Mode::Air));
        assert_eq!(flags & flag::CEILING, 0);
    }
    assert_eq!(b.x, fx(64 - 12));
    assert_eq!(b.y, fx(30 - 12));
}

#[test]
fn nothing_tunnels_through_one_cell_walls_or_floors_at_four_cells_a_frame() {
    let terrain = map(&[
        "..........",
        "..........",
        ".....#....",
        "..........",
        "..........",
        "##########",
    ]);
    // From x = 30 a single 64 px step would put the right edge past the wall at x = 80-95.
    let mut b = body(30, 2 * 16, 12, 14);
    let flags = go(&terrain, &mut b, fx(64), 0, &options(Mode::Air));
    assert_ne!(flags & flag::WALL_RIGHT, 0);
    assert_eq!(b.x, fx(5 * 16 - 12));
    let mut b = body(130, 2 * 16, 12, 14);
    let flags = go(&terrain, &mut b, -fx(64), 0, &options(Mode::Air));
    assert_ne!(flags & flag::WALL_LEFT, 0);
    assert_eq!(b.x, fx(6 * 16));
    // Falling at 4 cells a frame onto a floor one cell thick (y = 80-95) from where one step
    // would land below it.
    let mut b = body(20, 20, 12, 14);
    let flags = go(&terrain, &mut b, 0, fx(64), &options(Mode::Air));
    assert_ne!(flags & flag::GROUND, 0);
    assert_eq!(b.y, fx(5 * 16 - 14));
    let moved = move_body(
        &terrain,
        &mut body(20, 0, 12, 14),
        &MoveOptions {
            mode: Mode::Air,
            ..MoveOptions::default()
        },
    );
    assert_eq!(moved.steps, 1, "no velocity, one step");
}

#[test]
fn ten_thousand_frames_at_0_3_px_travel_3000_px() {
    let terrain = CollisionMap::new(256, 4);
    let mut wide = terrain.clone();
    for x in 0..256 {
        wide.set(x, 3, Tile::Solid);
    }
    let mut b = body(0, 32, 8, 16);
    let speed = crate::fixed::fx_from_f64(0.3);
    let mut travelled: i64 = 0;
    for _ in 0..10_000 {
        go(&wide, &mut b, speed, FX_ONE / 4, &options(Mode::Ground));
        travelled += i64::from(b.vx);
    }
    assert_eq!(travelled, i64::from(speed) * 10_000);
    assert_eq!(fx_floor(b.x), 3000);
}

// ---------------------------------------------------------------------------------------
// One-way floors.

#[test]
fn one_way_floors_land_from_above_and_let_everything_else_through() {
    let terrain = map(&[
        "........", "........", "...===..", "........", "...===..", "........", "########",
    ]);
    let air = options(Mode::Air);
    // Jump up through the lower platform from below.
    let mut b = body(52, 5 * 16 - 16, 12, 16);
    let flags = go(&terrain, &mut b, 0, -fx(12), &air);
    assert_eq!(flags & (flag::CEILING | flag::GROUND), 0);
    assert_eq!(b.y, fx(80 - 16 - 12));
    // Keep rising through it, then fall back: land on its top.
    go(&terrain, &mut b, 0, -fx(10), &air);
    let mut landed = false;
    for _ in 0..10 {
        let flags = go(&terrain, &mut b, 0, fx(3), &air);
        if flags & flag::GROUND != 0 {
            assert_ne!(flags & flag::ON_ONEWAY, 0);
            landed = true;
            break;
        }
    }
    assert!(landed);
    assert_eq!(b.y, fx(4 * 16 - 16));
    // Walk off its side and fall to the floor... and walk in from the side under it.
    let mut side = body(10, 4 * 16 + 2, 12, 14);
    let flags = go(&terrain, &mut side, fx(10), 0, &air);
    assert_eq!(flags & (flag::WALL_RIGHT | flag::GROUND), 0);
    // Drop through on request, then keep falling.
    let ground = options(Mode::Ground);
    let drop = MoveOptions {
        drop_through: true,
        ..ground
    };
    let flags = go(&terrain, &mut b, 0, fx(1), &drop);
    assert_eq!(flags & flag::GROUND, 0);
    let flags = go(&terrain, &mut b, 0, fx(4), &ground);
    assert_eq!(
        flags & flag::GROUND,
        0,
        "feet are inside the platform: it no longer holds"
    );
    for _ in 0..20 {
        go(&terrain, &mut b, 0, fx(4), &air);
    }
    assert_eq!(b.y, fx(6 * 16 - 16), "on the floor below");
}

#[test]
fn two_one_way_floors_16_px_apart_each_hold_when_reached_from_above() {
    let terrain = map(&["......", "......", "..==..", "..==..", "......", "######"]);
    let mut b = body(34, 0, 12, 16);
    let air = options(Mode::Air);
    for _ in 0..10 {
        go(&terrain, &mut b, 0, fx(3), &air);
    }
    assert_eq!(b.y, fx(32 - 16), "on the upper one");
    let drop = MoveOptions {
        drop_through: true,
        ..air
    };
    go(&terrain, &mut b, 0, fx(2), &drop);
    for _ in 0..10 {
        go(&terrain, &mut b, 0, fx(3), &air);
    }
    assert_eq!(b.y, fx(48 - 16), "on the lower one");
}

// ---------------------------------------------------------------------------------------
// Ladders, ice, hazards.

fn ladder_map() -> CollisionMap {
    map(&[
        "........", "...H....", "...H....", "...H....", "...H....", "########",
    ])
}

#[test]
fn ladder_tops_hold_walkers_not_late_jumpers_and_can_be_climbed_down() {
    let terrain = ladder_map();
    let ground = options(Mode::Ground);
    // Standing on the top, walking across it.
    let mut b = body(40, 0, 12, 16);
    let flags = go(&terrain, &mut b, 0, FX_ONE / 4, &ground);
    assert_ne!(flags & flag::LADDER_TOP, 0);
    assert_eq!(b.y, 0);
    for _ in 0..4 {
        go(&terrain, &mut b, fx(2), FX_ONE / 4, &ground);
    }
    assert_eq!(b.y, 0, "walked over the top");
    // A jumper whose feet are already inside the top cell does not land on it.
    let mut late = body(52, 4, 12, 16);
    let flags = go(&terrain, &mut late, 0, fx(2), &options(Mode::Air));
    assert_eq!(flags & flag::GROUND, 0);
    // Climbing down from the top in ladder mode, to the floor.
    let mut climber = body(52, 0, 12, 16);
    let ladder = options(Mode::Ladder);
    let mut flags = 0;
    for _ in 0..40 {
        flags = go(&terrain, &mut climber, 0, fx(2), &ladder);
        if flags & flag::GROUND != 0 {
            break;
        }
        assert_ne!(flags & flag::ON_LADDER, 0);
    }
    assert_ne!(flags & flag::GROUND, 0);
    assert_eq!(climber.y, fx(80 - 16));
}

#[test]
fn a_jump_from_mid_ladder_leaves_it_in_the_air() {
    let terrain = ladder_map();
    let mut b = body(52, 40, 12, 16);
    let flags = go(&terrain, &mut b, fx(3), -fx(5), &options(Mode::Air));
    assert_eq!(flags & flag::GROUND, 0);
    assert_eq!((b.x, b.y), (fx(55), fx(35)));
}

#[test]
fn ice_and_hazards_raise_their_flags() {
    let terrain = map(&["......", "......", "...^..", "IIII##"]);
    let mut b = body(8, 32, 12, 16);
    let flags = go(&terrain, &mut b, fx(1), FX_ONE / 4, &options(Mode::Ground));
    assert_ne!(flags & flag::ON_ICE, 0);
    assert_eq!(flags & flag::HAZARD, 0);
    let flags = go(&terrain, &mut b, fx(50), FX_ONE / 4, &options(Mode::Ground));
    assert_ne!(flags & flag::HAZARD, 0);
    assert_eq!(flags & flag::ON_ICE, 0, "standing on solid now");
}

// ---------------------------------------------------------------------------------------
// Gravity flip.

/// `rows` upside down, with slopes turned into ceiling slopes.
fn mirrored(terrain: &CollisionMap) -> CollisionMap {
    let mut out = CollisionMap::new(terrain.cols() as usize, terrain.rows() as usize);
    for y in 0..terrain.rows() {
        for x in 0..terrain.cols() {
            out.set(x, terrain.rows() - 1 - y, terrain.get(x, y).mirrored());
        }
    }
    out
}

#[test]
fn gravity_up_on_the_mirrored_map_mirrors_a_slope_walk_exactly() {
    let terrain = hills();
    let upside_down = mirrored(&terrain);
    let height = fx(terrain.rows() * 16);
    let (w, h) = (12, 24);
    let mut down = body(2, 0, w, h);
    down.y = surface(&terrain, 8) - fx(h);
    let mut up = down;
    up.y = height - down.y - fx(h);
    let normal = options(Mode::Ground);
    let flipped = MoveOptions {
        gravity_up: true,
        ..normal
    };
    for frame in 0..300 {
        let a = go(&terrain, &mut down, fx(2), FX_ONE / 4, &normal);
        let b = go(&upside_down, &mut up, fx(2), -FX_ONE / 4, &flipped);
        assert_eq!(a, b, "flags, frame {frame}");
        assert_eq!(up.x, down.x, "frame {frame}");
        assert_eq!(up.y, height - down.y - fx(h), "frame {frame}");
        assert_eq!(up.vy, -down.vy);
    }
    assert!(fx_floor(down.x) > 500);
}

#[test]
fn a_walking_body_reads_a_few_dozen_cells_at_most() {
    let terrain = hills();
    let mut b = body(16, 0, 12, 24);
    b.y = surface(&terrain, 22) - fx(24);
    let (mut total, mut most) = (0, 0);
    for _ in 0..200 {
        b.vx = fx(2);
        b.vy = FX_ONE / 4;
        let moved = move_body(&terrain, &mut b, &MoveOptions::default());
        total += moved.probes;
        most = most.max(moved.probes);
    }
    let mean = total / 200;
    assert!((8..=20).contains(&mean), "mean {mean}");
    assert!(most <= 30, "most {most}");
}
