//! Debug overlays on the game picture, drawn from what the hardware units used this frame:
//! the collision layer's cells by attribute (slopes as their lines), the bodies `move_body`
//! moved with their flags, the hitbox lists by group with overlapping pairs highlighted, the
//! moving platforms, the bullets' and shots' hit boxes, and the player's hit and graze boxes.
//! They read the machine only: no cycles, no state, the game's picture and hashes unchanged
//! (they draw on a copy of the picture).
//!
//! World and screen: the collision unit works in world pixels, so its overlays are shifted by
//! the scroll of the BG layer showing the terrain — the first enabled layer with the collision
//! layer's size in pixels (none: world = screen). The bullet unit works in screen pixels.

mod canvas;

use std::fmt;

use crate::collide::hitbox::{Hitbox, overlap};
use crate::collide::mover::flag;
use crate::collide::tile::{FULL, Tile};
use crate::fixed::Fx;
use crate::machine::Machine;
use crate::spec::{SCREEN_H, SCREEN_W};
use canvas::{Canvas, Rgba};

/// One overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Overlay {
    /// The collision layer's cells coloured by attribute.
    Collision,
    /// This frame's moving platforms.
    Platforms,
    /// Bodies moved by `move_body` this frame, with their flags.
    Bodies,
    /// The hitbox lists, by group; overlapping pairs highlighted.
    Hitboxes,
    /// Enemy bullets' and player shots' hit boxes, and the shots' targets.
    Bullets,
    /// The player's hit box and graze box (bullet unit).
    Player,
}

impl Overlay {
    /// Every overlay, in drawing order.
    pub const ALL: [Overlay; 6] = [
        Overlay::Collision,
        Overlay::Platforms,
        Overlay::Bodies,
        Overlay::Hitboxes,
        Overlay::Bullets,
        Overlay::Player,
    ];

    /// The overlay's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Overlay::Collision => "collision",
            Overlay::Platforms => "platforms",
            Overlay::Bodies => "bodies",
            Overlay::Hitboxes => "hitboxes",
            Overlay::Bullets => "bullets",
            Overlay::Player => "player",
        }
    }

    /// Parses a comma-separated list of names (`all` for every one), sorted into drawing
    /// order; `Err` names the unknown word and the known ones.
    pub fn parse_list(list: &str) -> Result<Vec<Overlay>, String> {
        let mut chosen = Vec::new();
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if word == "all" {
                chosen.extend(Overlay::ALL);
                continue;
            }
            let overlay = Overlay::ALL
                .into_iter()
                .find(|o| o.name() == word)
                .ok_or_else(|| {
                    let known: Vec<&str> = Overlay::ALL.iter().map(|o| o.name()).collect();
                    format!("no overlay `{word}` (known: {}, all)", known.join(", "))
                })?;
            chosen.push(overlay);
        }
        if chosen.is_empty() {
            return Err("no overlay named".into());
        }
        chosen.sort();
        chosen.dedup();
        Ok(chosen)
    }
}

impl fmt::Display for Overlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Draws `overlays` of `machine`'s last frame over `rgba` (its 256x256 RGBA picture).
pub fn draw(machine: &Machine, overlays: &[Overlay], rgba: &mut [u8]) {
    let mut canvas = Canvas::new(rgba);
    let camera = world_camera(machine);
    for overlay in Overlay::ALL.into_iter().filter(|o| overlays.contains(o)) {
        match overlay {
            Overlay::Collision => collision(machine, camera, &mut canvas),
            Overlay::Platforms => platforms(machine, camera, &mut canvas),
            Overlay::Bodies => bodies(machine, camera, &mut canvas),
            Overlay::Hitboxes => hitboxes(machine, camera, &mut canvas),
            Overlay::Bullets => bullets(machine, &mut canvas),
            Overlay::Player => player(machine, &mut canvas),
        }
    }
}

/// The scroll of the BG layer showing the terrain (see the module doc), else (0, 0).
pub(crate) fn world_camera(machine: &Machine) -> (i32, i32) {
    let map = &machine.collide().map();
    let cell = map.cell_px() as usize;
    let size = (map.cols() as usize * cell, map.rows() as usize * cell);
    machine
        .video()
        .layers()
        .iter()
        .find(|l| l.enabled && (l.cols() * l.cell_size(), l.rows() * l.cell_size()) == size)
        .map_or((0, 0), |l| (l.scroll_x, l.scroll_y))
}

/// Whole pixels of a 16.16 value, rounded down.
fn px(v: Fx) -> i32 {
    v >> 16
}

fn collision(machine: &Machine, (cx, cy): (i32, i32), canvas: &mut Canvas) {
    let map = &machine.collide().map();
    let cell = map.cell_px();
    let first = (cx.div_euclid(cell), cy.div_euclid(cell));
    let across = SCREEN_W as i32 / cell + 1;
    let down = SCREEN_H as i32 / cell + 1;
    for gy in first.1..=first.1 + down {
        for gx in first.0..=first.0 + across {
            if gx < 0 || gy < 0 || gx >= map.cols() || gy >= map.rows() {
                continue;
            }
            let (x, y) = (gx * cell - cx, gy * cell - cy);
            cell_overlay(map.get(gx, gy), x, y, cell, canvas);
        }
    }
}

/// One collision cell of `cell` px at screen (x, y). Drawn for 16 px and scaled: a ladder's
/// rungs at 3/16, 8/16 and 13/16 of the cell, a slope's edge heights in sixteenths.
fn cell_overlay(tile: Tile, x: i32, y: i32, cell: i32, canvas: &mut Canvas) {
    const SOLID: Rgba = [70, 110, 255, 90];
    const EDGE: Rgba = [120, 160, 255, 220];
    const SLOPE: Rgba = [80, 255, 120, 255];
    const ONE_WAY: Rgba = [255, 230, 60, 255];
    let sixteenths = |n: i32| n * cell / i32::from(FULL);
    match tile {
        Tile::Empty => {}
        Tile::Solid => {
            canvas.fill(x, y, cell, cell, SOLID);
            canvas.outline(x, y, cell, cell, EDGE);
        }
        Tile::Ice => {
            canvas.fill(x, y, cell, cell, [140, 240, 255, 110]);
            canvas.outline(x, y, cell, cell, [200, 250, 255, 230]);
        }
        Tile::Ladder => {
            canvas.fill(x, y, cell, cell, [220, 150, 60, 70]);
            let inset = sixteenths(3);
            for rung in [3, 8, 13].map(sixteenths) {
                canvas.fill(
                    x + inset,
                    y + rung,
                    cell - 2 * inset,
                    1,
                    [240, 170, 80, 230],
                );
            }
        }
        Tile::Hazard => {
            canvas.fill(x, y, cell, cell, [255, 50, 50, 100]);
            canvas.line(x, y, x + cell - 1, y + cell - 1, [255, 80, 80, 230]);
            canvas.line(x + cell - 1, y, x, y + cell - 1, [255, 80, 80, 230]);
        }
        Tile::OneWay => canvas.fill(x, y, cell, 2, ONE_WAY),
        Tile::OneWayUp => canvas.fill(x, y + cell - 2, cell, 2, ONE_WAY),
        Tile::Slope { left, right } => {
            let (l, r) = (sixteenths(left.into()), sixteenths(right.into()));
            canvas.line(x, y + cell - l, x + cell - 1, y + cell - r, SLOPE);
        }
        Tile::CeilingSlope { left, right } => {
            let (l, r) = (sixteenths(left.into()), sixteenths(right.into()));
            canvas.line(x, y + l - 1, x + cell - 1, y + r - 1, SLOPE);
        }
    }
}

fn platforms(machine: &Machine, (cx, cy): (i32, i32), canvas: &mut Canvas) {
    const PLATFORM: Rgba = [255, 80, 255, 255];
    for p in machine.collide().platforms().iter() {
        let (x, y) = (px(p.x) - cx, px(p.y) - cy);
        canvas.outline(x, y, p.w, p.h, PLATFORM);
        // Its motion this frame, from its centre, 4x longer so it shows.
        let (mx, my) = (x + p.w / 2, y + p.h / 2);
        let (dx, dy) = (px(p.dx.saturating_mul(4)), px(p.dy.saturating_mul(4)));
        canvas.line(
            mx,
            my,
            mx.saturating_add(dx),
            my.saturating_add(dy),
            PLATFORM,
        );
    }
}

/// Letters for a move's flags: W walls, G ground, C ceiling, T ladder top, I ice, S slope,
/// O one-way, H hazard, L on a ladder, P on a platform.
pub fn flag_letters(flags: u32) -> String {
    const LETTERS: [(u32, char); 10] = [
        (flag::WALL_LEFT | flag::WALL_RIGHT, 'W'),
        (flag::GROUND, 'G'),
        (flag::CEILING, 'C'),
        (flag::LADDER_TOP, 'T'),
        (flag::ON_ICE, 'I'),
        (flag::ON_SLOPE, 'S'),
        (flag::ON_ONEWAY, 'O'),
        (flag::HAZARD, 'H'),
        (flag::ON_LADDER, 'L'),
        (flag::ON_PLATFORM, 'P'),
    ];
    LETTERS
        .iter()
        .filter(|(bits, _)| flags & bits != 0)
        .map(|&(_, letter)| letter)
        .collect()
}

fn bodies(machine: &Machine, (cx, cy): (i32, i32), canvas: &mut Canvas) {
    const BODY: Rgba = [60, 255, 140, 255];
    for moved in machine.collide().trace().moves() {
        let (x, y) = (px(moved.x) - cx, px(moved.y) - cy);
        canvas.outline(x, y, moved.w, moved.h, BODY);
        let letters = flag_letters(moved.flags);
        if !letters.is_empty() {
            canvas.text(x, y - 10, &letters, BODY);
        }
    }
}

/// Outline colours of hitbox groups (group % 8).
const GROUP_COLOURS: [Rgba; 8] = [
    [255, 255, 255, 255],
    [255, 90, 90, 255],
    [90, 200, 255, 255],
    [255, 210, 60, 255],
    [150, 255, 90, 255],
    [255, 120, 230, 255],
    [255, 150, 60, 255],
    [170, 140, 255, 255],
];

/// Whether the unit reports `a` and `b` as a pair: either tests the other's group and they
/// overlap.
fn paired(a: &Hitbox, b: &Hitbox) -> bool {
    (a.tests(b) || b.tests(a)) && overlap(a, b)
}

/// For each box, whether it is in a pair the unit reports. Sweeps along x: only boxes
/// starting before a box's right edge can overlap it.
fn boxes_in_pairs(boxes: &[Hitbox]) -> Vec<bool> {
    let mut by_left: Vec<usize> = (0..boxes.len()).collect();
    by_left.sort_by_key(|&i| boxes[i].x);
    let mut in_pair = vec![false; boxes.len()];
    for (k, &i) in by_left.iter().enumerate() {
        let a = &boxes[i];
        let right = i64::from(a.x) + i64::from(a.w);
        for &j in &by_left[k + 1..] {
            if i64::from(boxes[j].x) >= right {
                break;
            }
            if paired(a, &boxes[j]) {
                in_pair[i] = true;
                in_pair[j] = true;
            }
        }
    }
    in_pair
}

fn hitboxes(machine: &Machine, (cx, cy): (i32, i32), canvas: &mut Canvas) {
    let boxes = machine.collide().hitboxes().boxes();
    let in_pair = boxes_in_pairs(boxes);
    for (b, hit) in boxes.iter().zip(in_pair) {
        let (x, y) = (b.x.saturating_sub(cx), b.y.saturating_sub(cy));
        if hit {
            canvas.fill(x, y, b.w, b.h, [255, 40, 40, 110]);
        }
        canvas.outline(x, y, b.w, b.h, GROUP_COLOURS[usize::from(b.group) % 8]);
    }
}

fn bullets(machine: &Machine, canvas: &mut Canvas) {
    const BULLET: Rgba = [255, 170, 40, 255];
    const SHOT: Rgba = [150, 220, 255, 255];
    const TARGET: Rgba = [255, 90, 200, 255];
    let unit = &machine.bullets();
    let table = &unit.table();
    for i in 0..table.len() {
        let kind = &unit.types()[usize::from(table.kind[i]) % unit.types().len()];
        centred_box(
            canvas, table.x[i], table.y[i], kind.hit_w, kind.hit_h, BULLET,
        );
    }
    for shot in unit.shots() {
        let kind = &unit.types()[usize::from(shot.kind) % unit.types().len()];
        centred_box(canvas, shot.x, shot.y, kind.hit_w, kind.hit_h, SHOT);
    }
    for target in unit.targets() {
        let (w, h) = (px(target.w).max(1), px(target.h).max(1));
        canvas.outline(px(target.x), px(target.y), w, h, TARGET);
    }
}

/// The box of half sizes (hw, hh) around (x, y); a point for zero sizes.
fn centred_box(canvas: &mut Canvas, x: Fx, y: Fx, hw: Fx, hh: Fx, colour: Rgba) {
    let (left, top) = (px(x.saturating_sub(hw)), px(y.saturating_sub(hh)));
    let (right, bottom) = (px(x.saturating_add(hw)), px(y.saturating_add(hh)));
    canvas.outline(
        left,
        top,
        (right - left).max(1),
        (bottom - top).max(1),
        colour,
    );
}

fn player(machine: &Machine, canvas: &mut Canvas) {
    let Some(p) = machine.bullets().player() else {
        return;
    };
    centred_box(canvas, p.x, p.y, p.graze_w, p.graze_h, [255, 230, 60, 255]);
    let (left, top) = (
        px(p.x.saturating_sub(p.hit_w)),
        px(p.y.saturating_sub(p.hit_h)),
    );
    let right = px(p.x.saturating_add(p.hit_w));
    let bottom = px(p.y.saturating_add(p.hit_h));
    let (w, h) = ((right - left).max(1), (bottom - top).max(1));
    canvas.fill(left, top, w, h, [255, 40, 40, 200]);
    canvas.outline(left - 1, top - 1, w + 2, h + 2, [255, 255, 255, 255]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_into_drawing_order_and_unknown_names_are_refused() {
        assert_eq!(
            Overlay::parse_list("hitboxes, collision,hitboxes").unwrap(),
            [Overlay::Collision, Overlay::Hitboxes]
        );
        assert_eq!(Overlay::parse_list("all").unwrap(), Overlay::ALL);
        assert_eq!(
            Overlay::parse_list("boxes").unwrap_err(),
            "no overlay `boxes` (known: collision, platforms, bodies, hitboxes, bullets, player, all)"
        );
        assert!(Overlay::parse_list(" , ").is_err());
    }

    #[test]
    fn the_sweep_finds_the_boxes_every_pair_test_finds() {
        let mut rng = crate::rng::Rng::new(7);
        for round in 0..50 {
            let boxes: Vec<Hitbox> = (0..60)
                .map(|id| {
                    let mut at = |lo, hi| rng.range_inclusive(lo, hi);
                    let (group, mask) = (at(0, 3), at(0, 15));
                    let (x, y, w, h) = (at(-20, 200), at(-20, 200), at(1, 40), at(1, 40));
                    Hitbox::new(id, group, mask, x, y, w, h).unwrap()
                })
                .collect();
            let every_pair: Vec<bool> = (0..boxes.len())
                .map(|i| (0..boxes.len()).any(|j| i != j && paired(&boxes[i], &boxes[j])))
                .collect();
            assert_eq!(boxes_in_pairs(&boxes), every_pair, "round {round}");
            assert!(every_pair.contains(&true) && every_pair.contains(&false));
        }
    }

    #[test]
    fn collision_cells_are_drawn_at_the_layers_cell_size() {
        use crate::collide::map::{CellSize, CollisionMap};
        let mut machine = Machine::new(Default::default(), 0);
        let map = CollisionMap::from_ascii(
            &["....", ".#./"],
            &[('/', Tile::Slope { left: 0, right: 16 })],
        );
        machine
            .collide_mut()
            .load_map(map.with_cell_size(CellSize::Px8));
        let mut rgba = vec![0u8; SCREEN_W * SCREEN_H * 4];
        draw(&machine, &[Overlay::Collision], &mut rgba);
        let lit = |x: usize, y: usize| rgba[(y * SCREEN_W + x) * 4..][..3] != [0, 0, 0];
        assert!(
            lit(8, 8) && lit(15, 15),
            "the block fills cell (1, 1): 8..16 px"
        );
        assert!(!lit(16, 12) && !lit(12, 16) && !lit(4, 4));
        // The 45 degree slope in cell (3, 1) rises from (24, 16) to (31, 8).
        assert!(lit(31, 8) && lit(24, 16) && !lit(24, 9));
    }

    #[test]
    fn flags_read_as_letters() {
        assert_eq!(flag_letters(flag::GROUND | flag::ON_SLOPE), "GS");
        assert_eq!(flag_letters(flag::WALL_RIGHT), "W");
        assert_eq!(flag_letters(0), "");
    }
}
