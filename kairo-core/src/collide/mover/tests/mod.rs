//! The mover against seed 000's own routine, and the behaviours the issue lists, each with
//! exact fixed-point positions and flags, at every cell size.
//!
//! The tests are written for 16 px cells and run at 8, 16 and 32 px ([`At`]): the map keeps
//! its cells and every length — positions, sizes, speeds, the margin and the positions
//! expected — is scaled by size / 16, so each rule is asserted at each size, exactly.

mod reference;
mod sizes;

use super::*;
use crate::collide::map::{CellSize, CollisionMap};
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

/// A test written for 16 px cells, run at cell size `.0`: lengths of the 16 px world
/// (positions, sizes, speeds, margins, expected positions) scaled by size / 16. Every scaled
/// value must be exact, or the test is not one that scales.
#[derive(Clone, Copy, Debug)]
struct At(CellSize);

/// Each cell size.
fn sizes() -> [At; 3] {
    CellSize::ALL.map(At)
}

impl At {
    /// A 16.16 length of the 16 px world, in this one.
    fn fx(self, v: Fx) -> Fx {
        let scaled = i64::from(v) * i64::from(self.0.px());
        assert_eq!(scaled % 16, 0, "{v} does not scale to {:?}", self.0);
        (scaled / 16) as Fx
    }

    /// A 16.16 length of this world, in the 16 px one.
    fn back(self, v: Fx) -> Fx {
        let scaled = i64::from(v) * 16;
        let px = i64::from(self.0.px());
        assert_eq!(scaled % px, 0, "{v} does not scale back from {:?}", self.0);
        (scaled / px) as Fx
    }

    /// Whole pixels of the 16 px world, in 16.16 in this one.
    fn px(self, v: i32) -> Fx {
        self.fx(fx(v))
    }

    /// A size in whole pixels.
    fn len(self, v: i32) -> i32 {
        assert_eq!(
            v * self.0.px() % 16,
            0,
            "{v} px does not scale to {:?}",
            self.0
        );
        v * self.0.px() / 16
    }

    fn map(self, rows: &[&str]) -> CollisionMap {
        map(rows).with_cell_size(self.0)
    }

    fn body(self, x: i32, y: i32, w: i32, h: i32) -> Body {
        Body {
            x: self.px(x),
            y: self.px(y),
            w: self.len(w),
            h: self.len(h),
            vx: 0,
            vy: 0,
        }
    }

    /// Options with the default 4 px margin, scaled.
    fn options(self, mode: Mode) -> MoveOptions {
        MoveOptions {
            mode,
            margin: self.px(4),
            ..MoveOptions::default()
        }
    }

    /// Moves `b` by (vx, vy) of the 16 px world; returns the flags.
    fn go(self, map: &CollisionMap, b: &mut Body, vx: Fx, vy: Fx, opt: &MoveOptions) -> u32 {
        go(map, b, self.fx(vx), self.fx(vy), opt)
    }
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

/// The y of the floor surface under x (whole px of the 16 px world) in `map`, in the 16 px
/// world: the top of the first floor from the top of the column.
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
const HILLS: &[&str] = &[
    "..........................................",
    "..........................................",
    "..........................................",
    "................../##\\....................",
    ".............ab#########cd................",
    "......1234###################5678.........",
    "##########################################",
    "##########################################",
];

fn walk_and_check_every_frame(at: At, speed_px: i32, direction: i32) {
    let terrain = at.map(HILLS);
    let (w, h) = (12, 24);
    let start = if direction > 0 { 16 } else { 41 * 16 - w };
    let mut b = at.body(start, 0, w, h);
    b.y = at.fx(surface(&terrain, start + w / 2) - fx(h));
    let opt = at.options(Mode::Ground);
    let gravity = FX_ONE / 4;
    let mut frames = 0;
    loop {
        let center = fx_floor(at.back(b.x)) + w / 2;
        if !(16..41 * 16).contains(&center) {
            break;
        }
        let flags = at.go(&terrain, &mut b, fx(speed_px) * direction, gravity, &opt);
        assert_ne!(
            flags & flag::GROUND,
            0,
            "airborne at x = {} (speed {speed_px}, {at:?})",
            fx_floor(at.back(b.x))
        );
        assert_eq!(
            flags & (flag::WALL_LEFT | flag::WALL_RIGHT),
            0,
            "stopped at x = {} ({at:?})",
            fx_floor(at.back(b.x))
        );
        let feet = b.y + fx(at.len(h));
        let center = fx_floor(at.back(b.x)) + w / 2;
        assert_eq!(
            feet,
            at.fx(surface(&terrain, center)),
            "foot height at centre x = {center} (speed {speed_px}, {at:?})"
        );
        frames += 1;
    }
    assert!(frames >= 600 / speed_px, "walked {frames} frames");
}

#[test]
fn walking_both_ways_over_every_slope_seam_keeps_the_feet_on_the_surface() {
    for at in sizes() {
        for speed in [1, 2, 4] {
            walk_and_check_every_frame(at, speed, 1);
            walk_and_check_every_frame(at, speed, -1);
        }
    }
}

#[test]
fn slope_flags_name_the_slope() {
    for at in sizes() {
        let terrain = at.map(HILLS);
        let mut b = at.body(6 * 16 + 2, 0, 12, 24);
        b.y = at.fx(surface(&terrain, 6 * 16 + 8) - fx(24));
        let moved = move_body(&terrain, &mut b, &at.options(Mode::Ground));
        assert_ne!(moved.flags & flag::ON_SLOPE, 0, "{at:?}");
        assert_eq!(moved.slope, Some(Tile::Slope { left: 0, right: 4 }));
    }
}

#[test]
fn the_margin_keeps_a_runner_grounded_downhill_only_when_it_is_large_enough() {
    for at in sizes() {
        let terrain = at.map(&[
            "..........",
            "#\\........",
            "##\\.......",
            "###\\......",
            "####\\.....",
            "##########",
        ]);
        let run = |speed: i32, margin: i32| {
            let mut b = at.body(2, 0, 8, 16);
            b.y = at.px(16 - 16);
            let opt = MoveOptions {
                margin: at.px(margin),
                ..MoveOptions::default()
            };
            (0..40).all(|_| {
                at.go(&terrain, &mut b, fx(speed), FX_ONE / 4, &opt) & flag::GROUND != 0
                    || b.x >= at.px(5 * 16 + 1)
            })
        };
        assert!(
            run(4, 4),
            "4 px/frame down 45 deg with a 4 px margin, {at:?}"
        );
        assert!(!run(6, 4), "6 px/frame outruns a 4 px margin, {at:?}");
        assert!(run(6, 6), "{at:?}");
    }
}

#[test]
fn constant_slope_speed_slows_the_run_along_a_45_degree_slope() {
    for at in sizes() {
        let terrain = at.map(&[
            "........", "......./", "....../#", "...../##", "..../###", "########",
        ]);
        let mut b = at.body(2 * 16, 0, 8, 16);
        b.y = at.px(4 * 16 - 16);
        let opt = MoveOptions {
            slope_speed: true,
            ..at.options(Mode::Ground)
        };
        at.go(&terrain, &mut b, fx(1), FX_ONE / 4, &opt);
        assert_eq!(b.vx, at.px(1), "flat ground: full speed");
        let mut b = at.body(4 * 16 + 4, 0, 8, 16);
        b.y = at.fx(surface(&terrain, 4 * 16 + 8) - fx(16));
        at.go(&terrain, &mut b, fx(4), FX_ONE / 4, &opt);
        // 4 / sqrt(2) = 2.828427 px, in 16.16 from integer square roots; scaled, it is
        // rounded from the scaled speed, so it may be a 65536th of a pixel off.
        let expected = at.fx(185_363 * 2) / 2;
        assert!(
            (expected - 1..=expected + 1).contains(&b.vx),
            "{} for {expected}, {at:?}",
            b.vx
        );
        if at.0 == CellSize::Px16 {
            assert_eq!(b.vx, 185_363);
        }
    }
    assert_eq!(slope_speed_factor(0), 1 << 32);
}

// ---------------------------------------------------------------------------------------
// Ledges, cliffs, walls, ceilings, seams, tunnelling.

#[test]
fn walking_off_a_cliff_falls() {
    for at in sizes() {
        let terrain = at.map(&["......", "......", "###...", "######"]);
        let mut b = at.body(16, 16, 12, 16);
        let opt = at.options(Mode::Ground);
        assert_ne!(
            at.go(&terrain, &mut b, fx(2), FX_ONE / 4, &opt) & flag::GROUND,
            0
        );
        let mut x_off = None;
        for _ in 0..20 {
            let flags = at.go(&terrain, &mut b, fx(2), FX_ONE / 4, &opt);
            if flags & flag::GROUND == 0 {
                x_off = Some(b.x);
                break;
            }
        }
        // The body leaves the ledge when its left edge passes the ledge's right edge (x = 48).
        assert_eq!(
            x_off,
            Some(at.px(48)),
            "falls once nothing is under it, {at:?}"
        );
    }
}

#[test]
fn landing_on_a_ledge_with_one_pixel_holds_and_with_none_falls() {
    for at in sizes() {
        let terrain = at.map(&["......", "......", "......", "##....", "######"]);
        // The ledge's right edge is x = 32. A 12 px body with its left edge at x = 31
        // overlaps 1 px.
        let mut b = at.body(31, 28, 12, 16);
        let flags = at.go(&terrain, &mut b, 0, fx(8), &at.options(Mode::Air));
        assert_ne!(flags & flag::GROUND, 0, "{at:?}");
        assert_eq!(b.y, at.px(48 - 16));
        let mut b = at.body(32, 28, 12, 16);
        let flags = at.go(&terrain, &mut b, 0, fx(8), &at.options(Mode::Air));
        assert_eq!(flags & flag::GROUND, 0, "{at:?}");
        assert_eq!(b.y, at.px(36));
    }
}

#[test]
fn no_seam_snags_on_floors_and_walls_of_separate_tiles() {
    for at in sizes() {
        // A floor of separate blocks, approached falling diagonally: no wall flag, lands.
        let terrain = at.map(&["..........", "..........", "..........", "##########"]);
        let mut b = at.body(10, 28, 12, 16);
        let flags = at.go(&terrain, &mut b, fx(7), fx(9), &at.options(Mode::Air));
        assert_eq!(flags & (flag::WALL_LEFT | flag::WALL_RIGHT), 0, "{at:?}");
        assert_ne!(flags & flag::GROUND, 0, "{at:?}");
        assert_eq!((b.x, b.y), (at.px(17), at.px(32)));
        // A wall of separate blocks, approached rising diagonally: stops flush, no ceiling.
        let terrain = at.map(&["....#", "....#", "....#", "....#", "#####"]);
        let mut b = at.body(40, 30, 12, 16);
        for _ in 0..4 {
            let flags = at.go(&terrain, &mut b, fx(5), -fx(3), &at.options(Mode::Air));
            assert_eq!(flags & flag::CEILING, 0, "{at:?}");
        }
        assert_eq!(b.x, at.px(64 - 12));
        assert_eq!(b.y, at.px(30 - 12));
    }
}

#[test]
fn nothing_tunnels_through_one_cell_walls_or_floors_at_four_cells_a_frame() {
    for at in sizes() {
        let terrain = at.map(&[
            "..........",
            "..........",
            ".....#....",
            "..........",
            "..........",
            "##########",
        ]);
        // From x = 30 a single 64 px step would put the right edge past the wall at x = 80-95.
        let mut b = at.body(30, 2 * 16, 12, 14);
        let flags = at.go(&terrain, &mut b, fx(64), 0, &at.options(Mode::Air));
        assert_ne!(flags & flag::WALL_RIGHT, 0, "{at:?}");
        assert_eq!(b.x, at.px(5 * 16 - 12));
        let mut b = at.body(130, 2 * 16, 12, 14);
        let flags = at.go(&terrain, &mut b, -fx(64), 0, &at.options(Mode::Air));
        assert_ne!(flags & flag::WALL_LEFT, 0, "{at:?}");
        assert_eq!(b.x, at.px(6 * 16));
        // Falling at 4 cells a frame onto a floor one cell thick (y = 80-95) from where one
        // step would land below it.
        let mut b = at.body(20, 20, 12, 14);
        let flags = at.go(&terrain, &mut b, 0, fx(64), &at.options(Mode::Air));
        assert_ne!(flags & flag::GROUND, 0, "{at:?}");
        assert_eq!(b.y, at.px(5 * 16 - 14));
        let moved = move_body(
            &terrain,
            &mut at.body(20, 0, 12, 14),
            &at.options(Mode::Air),
        );
        assert_eq!(moved.steps, 1, "no velocity, one step");
        let mut fast = at.body(20, 0, 12, 14);
        fast.vy = at.px(64);
        let moved = move_body(&terrain, &mut fast, &at.options(Mode::Air));
        assert_eq!(moved.steps, 4, "four cells, four steps, {at:?}");
    }
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
    for at in sizes() {
        let terrain = at.map(&[
            "........", "........", "...===..", "........", "...===..", "........", "########",
        ]);
        let air = at.options(Mode::Air);
        // Jump up through the lower platform from below.
        let mut b = at.body(52, 5 * 16 - 16, 12, 16);
        let flags = at.go(&terrain, &mut b, 0, -fx(12), &air);
        assert_eq!(flags & (flag::CEILING | flag::GROUND), 0, "{at:?}");
        assert_eq!(b.y, at.px(80 - 16 - 12));
        // Keep rising through it, then fall back: land on its top.
        at.go(&terrain, &mut b, 0, -fx(10), &air);
        let mut landed = false;
        for _ in 0..10 {
            let flags = at.go(&terrain, &mut b, 0, fx(3), &air);
            if flags & flag::GROUND != 0 {
                assert_ne!(flags & flag::ON_ONEWAY, 0, "{at:?}");
                landed = true;
                break;
            }
        }
        assert!(landed, "{at:?}");
        assert_eq!(b.y, at.px(4 * 16 - 16));
        // Walk off its side and fall to the floor... and walk in from the side under it.
        let mut side = at.body(10, 4 * 16 + 2, 12, 14);
        let flags = at.go(&terrain, &mut side, fx(10), 0, &air);
        assert_eq!(flags & (flag::WALL_RIGHT | flag::GROUND), 0, "{at:?}");
        // Drop through on request, then keep falling.
        let ground = at.options(Mode::Ground);
        let drop = MoveOptions {
            drop_through: true,
            ..ground
        };
        let flags = at.go(&terrain, &mut b, 0, fx(1), &drop);
        assert_eq!(flags & flag::GROUND, 0, "{at:?}");
        let flags = at.go(&terrain, &mut b, 0, fx(4), &ground);
        assert_eq!(
            flags & flag::GROUND,
            0,
            "feet are inside the platform: it no longer holds, {at:?}"
        );
        for _ in 0..20 {
            at.go(&terrain, &mut b, 0, fx(4), &air);
        }
        assert_eq!(b.y, at.px(6 * 16 - 16), "on the floor below, {at:?}");
    }
}

#[test]
fn two_one_way_floors_16_px_apart_each_hold_when_reached_from_above() {
    // (One cell apart at every size.)
    for at in sizes() {
        let terrain = at.map(&["......", "......", "..==..", "..==..", "......", "######"]);
        let mut b = at.body(34, 0, 12, 16);
        let air = at.options(Mode::Air);
        for _ in 0..10 {
            at.go(&terrain, &mut b, 0, fx(3), &air);
        }
        assert_eq!(b.y, at.px(32 - 16), "on the upper one, {at:?}");
        let drop = MoveOptions {
            drop_through: true,
            ..air
        };
        at.go(&terrain, &mut b, 0, fx(2), &drop);
        for _ in 0..10 {
            at.go(&terrain, &mut b, 0, fx(3), &air);
        }
        assert_eq!(b.y, at.px(48 - 16), "on the lower one, {at:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Ladders, ice, hazards.

const LADDER: &[&str] = &[
    "........", "...H....", "...H....", "...H....", "...H....", "########",
];

#[test]
fn ladder_tops_hold_walkers_not_late_jumpers_and_can_be_climbed_down() {
    for at in sizes() {
        let terrain = at.map(LADDER);
        let ground = at.options(Mode::Ground);
        // Standing on the top, walking across it.
        let mut b = at.body(40, 0, 12, 16);
        let flags = at.go(&terrain, &mut b, 0, FX_ONE / 4, &ground);
        assert_ne!(flags & flag::LADDER_TOP, 0, "{at:?}");
        assert_eq!(b.y, 0);
        for _ in 0..4 {
            at.go(&terrain, &mut b, fx(2), FX_ONE / 4, &ground);
        }
        assert_eq!(b.y, 0, "walked over the top, {at:?}");
        // A jumper whose feet are already inside the top cell does not land on it.
        let mut late = at.body(52, 4, 12, 16);
        let flags = at.go(&terrain, &mut late, 0, fx(2), &at.options(Mode::Air));
        assert_eq!(flags & flag::GROUND, 0, "{at:?}");
        // Climbing down from the top in ladder mode, to the floor.
        let mut climber = at.body(52, 0, 12, 16);
        let ladder = at.options(Mode::Ladder);
        let mut flags = 0;
        for _ in 0..40 {
            flags = at.go(&terrain, &mut climber, 0, fx(2), &ladder);
            if flags & flag::GROUND != 0 {
                break;
            }
            assert_ne!(flags & flag::ON_LADDER, 0, "{at:?}");
        }
        assert_ne!(flags & flag::GROUND, 0, "{at:?}");
        assert_eq!(climber.y, at.px(80 - 16));
    }
}

#[test]
fn a_jump_from_mid_ladder_leaves_it_in_the_air() {
    for at in sizes() {
        let terrain = at.map(LADDER);
        let mut b = at.body(52, 40, 12, 16);
        let flags = at.go(&terrain, &mut b, fx(3), -fx(5), &at.options(Mode::Air));
        assert_eq!(flags & flag::GROUND, 0, "{at:?}");
        assert_eq!((b.x, b.y), (at.px(55), at.px(35)));
    }
}

#[test]
fn ice_and_hazards_raise_their_flags() {
    for at in sizes() {
        let terrain = at.map(&["......", "......", "...^..", "IIII##"]);
        let mut b = at.body(8, 32, 12, 16);
        let flags = at.go(
            &terrain,
            &mut b,
            fx(1),
            FX_ONE / 4,
            &at.options(Mode::Ground),
        );
        assert_ne!(flags & flag::ON_ICE, 0, "{at:?}");
        assert_eq!(flags & flag::HAZARD, 0, "{at:?}");
        let flags = at.go(
            &terrain,
            &mut b,
            fx(50),
            FX_ONE / 4,
            &at.options(Mode::Ground),
        );
        assert_ne!(flags & flag::HAZARD, 0, "{at:?}");
        assert_eq!(flags & flag::ON_ICE, 0, "standing on solid now, {at:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Gravity flip.

/// `rows` upside down, with slopes turned into ceiling slopes.
fn mirrored(terrain: &CollisionMap) -> CollisionMap {
    let mut out = CollisionMap::sized(
        terrain.cols() as usize,
        terrain.rows() as usize,
        terrain.cell_size(),
    );
    for y in 0..terrain.rows() {
        for x in 0..terrain.cols() {
            out.set(x, terrain.rows() - 1 - y, terrain.get(x, y).mirrored());
        }
    }
    out
}

#[test]
fn gravity_up_on_the_mirrored_map_mirrors_a_slope_walk_exactly() {
    for at in sizes() {
        let terrain = at.map(HILLS);
        let upside_down = mirrored(&terrain);
        let height = at.px(terrain.rows() * 16);
        let (w, h) = (12, 24);
        let mut down = at.body(2, 0, w, h);
        down.y = at.fx(surface(&terrain, 8) - fx(h));
        let mut up = down;
        up.y = height - down.y - at.px(h);
        let normal = at.options(Mode::Ground);
        let flipped = MoveOptions {
            gravity_up: true,
            ..normal
        };
        for frame in 0..300 {
            let a = at.go(&terrain, &mut down, fx(2), FX_ONE / 4, &normal);
            let b = at.go(&upside_down, &mut up, fx(2), -FX_ONE / 4, &flipped);
            assert_eq!(a, b, "flags, frame {frame}, {at:?}");
            assert_eq!(up.x, down.x, "frame {frame}, {at:?}");
            assert_eq!(up.y, height - down.y - at.px(h), "frame {frame}, {at:?}");
            assert_eq!(up.vy, -down.vy);
        }
        assert!(down.x > at.px(500), "{at:?}");
    }
}

#[test]
fn a_walking_body_reads_a_few_dozen_cells_at_most() {
    for at in sizes() {
        let terrain = at.map(HILLS);
        let mut b = at.body(16, 0, 12, 24);
        b.y = at.fx(surface(&terrain, 22) - fx(24));
        let (mut total, mut most) = (0, 0);
        for _ in 0..200 {
            b.vx = at.px(2);
            b.vy = at.fx(FX_ONE / 4);
            let moved = move_body(&terrain, &mut b, &at.options(Mode::Ground));
            total += moved.probes;
            most = most.max(moved.probes);
        }
        let mean = total / 200;
        assert!((8..=20).contains(&mean), "mean {mean}, {at:?}");
        assert!(most <= 30, "most {most}, {at:?}");
    }
}
