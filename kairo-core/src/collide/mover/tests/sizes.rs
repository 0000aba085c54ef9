//! Cell sizes: a map, a body and its velocity scaled by 1/2 or 2 move exactly scaled, for
//! random maps of every tile and every mode; and the limits that are about the cell size
//! (top speed against one cell) at 8 px, the smallest.

use super::*;

/// Every tile kind, empty most often.
fn random_tile(rng: &mut Lcg) -> Tile {
    let slopes = crate::collide::tile::SLOPES;
    match rng.below(24) {
        0..=8 => Tile::Empty,
        9 | 10 => Tile::Solid,
        11 => Tile::Ice,
        12 => Tile::Ladder,
        13 => Tile::Hazard,
        14 => Tile::OneWay,
        15 => Tile::OneWayUp,
        16 => Tile::Slope { left: 3, right: 9 },
        17 | 18 => {
            let (_, left, right) = slopes[rng.below(slopes.len() as u32) as usize];
            Tile::CeilingSlope { left, right }
        }
        _ => {
            let (_, left, right) = slopes[rng.below(slopes.len() as u32) as usize];
            Tile::Slope { left, right }
        }
    }
}

/// A random even 16.16 value in -limit..limit (even, so that it halves exactly).
fn even(rng: &mut Lcg, limit: Fx) -> Fx {
    (rng.below(limit as u32) - limit / 2) & !1
}

#[test]
fn every_cell_size_moves_exactly_as_16_px_scaled() {
    let mut rng = Lcg(0xCE11_5123);
    let mut compared = 0;
    for _ in 0..120 {
        let (cols, rows) = (10, 9);
        let mut base = CollisionMap::new(cols, rows);
        for y in 0..rows as i32 {
            for x in 0..cols as i32 {
                base.set(x, y, random_tile(&mut rng));
            }
        }
        base.edges = crate::collide::map::Edges {
            left: rng.below(2) == 0,
            right: rng.below(2) == 0,
            top: rng.below(2) == 0,
            bottom: rng.below(2) == 0,
        };
        for _ in 0..200 {
            let (w, h) = (2 * (1 + rng.below(20)), 2 * (1 + rng.below(24)));
            let x = even(&mut rng, fx(2 * 16 * cols as i32)) + fx(4 * 16);
            let y = even(&mut rng, fx(2 * 16 * rows as i32)) + fx(4 * 16);
            let (mut vx, mut vy) = (even(&mut rng, fx(80)), even(&mut rng, fx(80)));
            if rng.below(3) == 0 {
                vy = 0;
            }
            // A move of n steps is cut into n equal parts: keep them whole at every size.
            let n = |vx: Fx, vy: Fx| vx.unsigned_abs().max(vy.unsigned_abs()).div_ceil(1 << 20);
            let parts = 2 * n(vx, vy).max(1) as Fx;
            (vx, vy) = (vx / parts * parts, vy / parts * parts);
            if 2 * n(vx, vy).max(1) as Fx != parts {
                continue;
            }
            let options = MoveOptions {
                mode: [Mode::Ground, Mode::Air, Mode::Ladder][rng.below(3) as usize],
                gravity_up: rng.below(3) == 0,
                drop_through: rng.below(4) == 0,
                slope_speed: false,
                margin: even(&mut rng, fx(32)).abs(),
            };
            let start = Body { x, y, w, h, vx, vy };
            let mut b16 = start;
            let moved16 = move_body(&base, &mut b16, &options);
            for at in [At(CellSize::Px8), At(CellSize::Px32)] {
                let map = base.clone().with_cell_size(at.0);
                let mut b = Body {
                    x: at.fx(x),
                    y: at.fx(y),
                    w: at.len(w),
                    h: at.len(h),
                    vx: at.fx(vx),
                    vy: at.fx(vy),
                };
                let scaled = MoveOptions {
                    margin: at.fx(options.margin),
                    ..options
                };
                let moved = move_body(&map, &mut b, &scaled);
                let case = format!("{at:?} {start:?} {options:?} map {:?}", base.tiles());
                assert_eq!(moved, moved16, "{case}");
                assert_eq!(
                    [b.x, b.y, b.vx, b.vy].map(|v| at.back(v)),
                    [b16.x, b16.y, b16.vx, b16.vy],
                    "{case}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 30_000, "{compared} moves compared");
}

#[test]
fn at_top_speed_nothing_skips_an_8_px_cell() {
    // A one-cell wall at x = 1600..1608 of a 2048 px layer; a floor one cell thick at
    // y = 1600..1608 of a 2048 px tall one.
    let mut across = CollisionMap::sized(256, 4, CellSize::Px8);
    let mut down = CollisionMap::sized(4, 256, CellSize::Px8);
    for i in 0..4 {
        across.set(200, i, Tile::Solid);
        down.set(i, 200, Tile::Solid);
    }
    let air = options(Mode::Air);
    for speed in [fx(MAX_SPEED_PX), fx(MAX_SPEED_PX) - 1, i32::MAX] {
        let mut b = body(0, 8, 6, 6);
        b.vx = speed;
        let moved = move_body(&across, &mut b, &air);
        assert_ne!(moved.flags & flag::WALL_RIGHT, 0);
        assert_eq!(b.x, fx(1600 - 6));
        assert_eq!(moved.steps, 256, "one step a cell at the top speed");
        let mut b = body(2040, 8, 6, 6);
        b.vx = -speed;
        assert_ne!(move_body(&across, &mut b, &air).flags & flag::WALL_LEFT, 0);
        assert_eq!(b.x, fx(1608));
        let mut b = body(8, 0, 6, 6);
        b.vy = speed;
        assert_ne!(move_body(&down, &mut b, &air).flags & flag::GROUND, 0);
        assert_eq!(b.y, fx(1600 - 6));
        let mut b = body(8, 2040, 6, 6);
        b.vy = -speed;
        assert_ne!(move_body(&down, &mut b, &air).flags & flag::CEILING, 0);
        assert_eq!(b.y, fx(1608));
    }
}

#[test]
fn heads_stop_under_blocks_and_slopes_and_walls_stop_walkers_flush() {
    for at in sizes() {
        // Row 1: a block, a rising 45 deg slope and a half slope, over an open room.
        let terrain = at.map(&["######", ".#/a..", "......", "......", "...#..", "######"]);
        for (column, tile) in [(1, '#'), (2, '/'), (3, 'a')] {
            let mut b = at.body(column * 16 + 2, 40, 12, 16);
            let flags = at.go(&terrain, &mut b, 0, -fx(12), &at.options(Mode::Air));
            assert_ne!(flags & flag::CEILING, 0, "head under {tile:?}, {at:?}");
            assert_eq!(b.y, at.px(32), "stopped at the cell's bottom, {at:?}");
        }
        // Walking right on the floor into the block at column 3 of row 4.
        let mut b = at.body(16, 64, 12, 16);
        let mut flags = 0;
        for _ in 0..10 {
            flags = at.go(
                &terrain,
                &mut b,
                fx(3),
                FX_ONE / 4,
                &at.options(Mode::Ground),
            );
        }
        assert_ne!(flags & flag::WALL_RIGHT, 0, "{at:?}");
        assert_ne!(flags & flag::GROUND, 0, "still standing, {at:?}");
        assert_eq!((b.x, b.y), (at.px(48 - 12), at.px(64)));
    }
}

#[test]
fn the_margin_is_at_most_one_cell_and_checked_against_the_cell_size() {
    // A margin of more than a cell acts as one cell: a body standing still in ground mode
    // over open space, feet on a row's edge, stays where it is (a larger margin would snap
    // it down to the bottom of the next row, where ground mode looks for a floor).
    for at in sizes() {
        let open = at.map(&["...", "...", "...", "..."]);
        let mut b = at.body(4, 0, 12, 16);
        let opt = MoveOptions {
            margin: at.px(40),
            ..MoveOptions::default()
        };
        let flags = at.go(&open, &mut b, 0, 0, &opt);
        assert_eq!((flags & flag::GROUND, b.y), (0, 0), "{at:?}");
    }
    // The margin check measures drops in the layer's pixels.
    let half = CollisionMap::from_ascii(
        &["....", "#c..", "####"],
        &[('c', Tile::Slope { left: 16, right: 8 })],
    );
    for (size, ok, drop) in [(CellSize::Px8, 3, 4.0), (CellSize::Px32, 15, 16.0)] {
        let map = half.clone().with_cell_size(size);
        assert!(crate::collide::check_margin(&map, fx(ok), fx(4)).is_ok());
        assert_eq!(
            crate::collide::check_margin(&map, fx(ok + 1), fx(4)),
            Err(crate::collide::CollideError::MarginTooLarge {
                margin: f64::from(ok + 1),
                drop
            })
        );
    }
    let flat = CollisionMap::sized(4, 4, CellSize::Px8);
    assert!(crate::collide::check_margin(&flat, fx(7), fx(4)).is_ok());
    assert!(
        crate::collide::check_margin(&flat, fx(8), fx(4)).is_err(),
        "a one-cell drop"
    );
}

/// Limits that are counted in cells, so that an 8 px layer makes them twice as tight in
/// pixels: documented in `docs/collision.md` ("Cell sizes").
#[test]
fn the_limits_counted_in_cells_hold_at_every_size() {
    for size in CellSize::ALL {
        let cell = size.px();
        let terrain = map(super::HILLS).with_cell_size(size);
        // A body narrower than two cells walks up and down every slope both ways; one two
        // cells wide is stopped going up a 45 degree slope (seed 000's sideways test).
        for (w, walks) in [(2 * cell - 1, true), (2 * cell, false)] {
            let mut stopped = false;
            for direction in [1, -1] {
                let start = if direction > 0 { cell } else { 41 * cell - w };
                let mut b = body(start, 0, w, 12);
                b.y = fx(6 * cell - 12);
                while (cell..41 * cell).contains(&(fx_floor(b.x) + w / 2)) {
                    let flags = go(
                        &terrain,
                        &mut b,
                        fx(direction),
                        FX_ONE / 4,
                        &options(Mode::Ground),
                    );
                    if flags & (flag::WALL_LEFT | flag::WALL_RIGHT) != 0 {
                        stopped = true;
                        break;
                    }
                    assert_ne!(flags & flag::GROUND, 0, "{w} px wide at {cell} px");
                }
            }
            assert_eq!(stopped, !walks, "{w} px wide at {cell} px");
        }
        // Ground mode snaps a body moving down more than a cell less the margin onto the
        // top of the row below, whatever is there (seed 000's floor search): falls belong
        // in air mode.
        let open = CollisionMap::sized(4, 40, size);
        for (vy, grounded) in [(cell - 4, false), (cell - 3, true)] {
            let mut b = body(4, 0, 6, cell);
            let flags = go(&open, &mut b, 0, fx(vy), &options(Mode::Ground));
            assert_eq!(
                flags & flag::GROUND != 0,
                grounded,
                "{vy} px down at {cell} px"
            );
            let mut b = body(4, 0, 6, cell);
            let flags = go(&open, &mut b, 0, fx(vy), &options(Mode::Air));
            assert_eq!(flags & flag::GROUND, 0);
        }
    }
}
