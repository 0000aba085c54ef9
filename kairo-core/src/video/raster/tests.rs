use std::collections::BTreeSet;

use super::*;

fn pixels(spans: &[Span]) -> BTreeSet<(i64, i64)> {
    spans
        .iter()
        .flat_map(|s| (s.x0..=s.x1).map(move |x| (i64::from(x), i64::from(s.y))))
        .collect()
}

/// The pixels as rows of `#` and `.` over the box (x0, y0)-(x1, y1).
fn picture(set: &BTreeSet<(i64, i64)>, (x0, y0): (i64, i64), (x1, y1): (i64, i64)) -> String {
    (y0..=y1)
        .map(|y| {
            (x0..=x1)
                .map(|x| if set.contains(&(x, y)) { '#' } else { '.' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn circle(r: i64, filled: bool) -> BTreeSet<(i64, i64)> {
    let mut out = Vec::new();
    oval(
        &Clip::SCREEN,
        (100 - r, 100 - r),
        (100 + r, 100 + r),
        filled,
        &mut out,
    );
    pixels(&out)
}

#[test]
fn small_circles_have_these_shapes() {
    let at = |r| picture(&circle(r, true), (100 - r, 100 - r), (100 + r, 100 + r));
    assert_eq!(at(0), "#");
    assert_eq!(at(1), ".#.\n###\n.#.");
    assert_eq!(at(2), ".###.\n#####\n#####\n#####\n.###.");
    assert_eq!(
        at(3),
        "..###..\n.#####.\n#######\n#######\n#######\n.#####.\n..###.."
    );
    let ring = picture(&circle(3, false), (97, 97), (103, 103));
    assert_eq!(
        ring,
        "..###..\n.#...#.\n#.....#\n#.....#\n#.....#\n.#...#.\n..###.."
    );
}

#[test]
fn filled_ovals_are_the_pixels_inside_the_ellipse() {
    // Brute force: (x - cx)^2 / (rx - 0.1)^2 + (y - cy)^2 / (ry - 0.1)^2 <= 1 in exact
    // arithmetic, with rx, ry the half-widths of the box.
    for (w, h) in [(1, 1), (1, 7), (2, 2), (5, 3), (8, 13), (20, 4), (33, 34)] {
        let (x0, y0) = (40, 50);
        let (x1, y1) = (x0 + w - 1, y0 + h - 1);
        let mut out = Vec::new();
        oval(&Clip::SCREEN, (x0, y0), (x1, y1), true, &mut out);
        let got = pixels(&out);
        let (a, b) = (10 * w as i128 - 2, 10 * h as i128 - 2);
        for y in y0 - 2..=y1 + 2 {
            for x in x0 - 2..=x1 + 2 {
                let ex = 10 * (2 * x as i128 - (x0 + x1) as i128);
                let ey = 10 * (2 * y as i128 - (y0 + y1) as i128);
                let inside = ex * ex * b * b + ey * ey * a * a <= a * a * b * b;
                assert_eq!(got.contains(&(x, y)), inside, "{w}x{h} at ({x}, {y})");
            }
        }
        // A box one pixel wide is a line.
        if w == 1 {
            assert_eq!(got.len() as i64, h);
        }
    }
}

#[test]
fn outlines_are_the_edge_of_their_fill() {
    for (w, h) in [(1, 1), (3, 3), (9, 5), (16, 30), (41, 41)] {
        let mut fill = Vec::new();
        let mut ring = Vec::new();
        oval(&Clip::SCREEN, (60, 60), (59 + w, 59 + h), true, &mut fill);
        oval(&Clip::SCREEN, (59 + w, 59 + h), (60, 60), false, &mut ring);
        let (fill, ring) = (pixels(&fill), pixels(&ring));
        for &(x, y) in &fill {
            let edge = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .iter()
                .any(|p| !fill.contains(p));
            assert_eq!(ring.contains(&(x, y)), edge, "{w}x{h} at ({x}, {y})");
        }
        assert!(ring.is_subset(&fill));
    }
}

#[test]
fn huge_shapes_are_cut_to_the_clip_in_bounded_work() {
    let clip = Clip::new(10, 20, 30, 40);
    let mut out = Vec::new();
    for far in [1 << 20, 1 << 40] {
        out.clear();
        oval(&clip, (-far, -far), (far, far), true, &mut out);
        assert_eq!(out.len(), 40);
        assert!(out.iter().all(|s| s.x0 == 10 && s.x1 == 39));
    }
    out.clear();
    oval(
        &clip,
        (-(1 << 20), -(1 << 20)),
        (1 << 20, 1 << 20),
        false,
        &mut out,
    );
    assert!(out.is_empty(), "the ring passes far outside");
    out.clear();
    triangle_fill(
        &clip,
        [(-(1 << 40), -5), (1 << 40, -5), (0, 1 << 40)],
        &mut out,
    );
    assert_eq!(out.len(), 40);
    out.clear();
    rect_fill(&clip, (1000, 1000), (-1000, -1000), &mut out);
    assert_eq!(pixels(&out).len(), 30 * 40);
}

#[test]
fn filled_triangles_are_the_lattice_points_inside() {
    // A small deterministic generator of corners, some off screen.
    let mut seed: u64 = 0x1234_5678;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 300) as i64 - 20
    };
    for _ in 0..60 {
        let p = [(next(), next()), (next(), next()), (next(), next())];
        let mut out = Vec::new();
        triangle_fill(&Clip::SCREEN, p, &mut out);
        let got = pixels(&out);
        let cross = |a: (i64, i64), b: (i64, i64), c: (i64, i64)| {
            (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
        };
        if cross(p[0], p[1], p[2]) == 0 {
            continue;
        }
        for y in 0..256 {
            for x in 0..256 {
                let d = [
                    cross(p[0], p[1], (x, y)),
                    cross(p[1], p[2], (x, y)),
                    cross(p[2], p[0], (x, y)),
                ];
                let inside = d.iter().all(|&v| v >= 0) || d.iter().all(|&v| v <= 0);
                assert_eq!(got.contains(&(x, y)), inside, "{p:?} at ({x}, {y})");
            }
        }
    }
}

#[test]
fn lines_and_rectangles_include_their_ends() {
    let mut out = Vec::new();
    let length = line(&Clip::SCREEN, (2, 3), (9, 3), &mut out);
    assert_eq!(length, 8);
    assert_eq!(out, [Span { y: 3, x0: 2, x1: 9 }]);
    out.clear();
    line(&Clip::SCREEN, (5, 5), (2, 8), &mut out);
    assert_eq!(
        pixels(&out),
        BTreeSet::from([(5, 5), (4, 6), (3, 7), (2, 8)])
    );
    out.clear();
    // A far line costs its length but stores only what shows.
    let length = line(&Clip::SCREEN, (-40000, 10), (40000, 10), &mut out);
    assert_eq!(length, 80001);
    assert_eq!(
        out,
        [Span {
            y: 10,
            x0: 0,
            x1: 255
        }]
    );
    out.clear();
    rect_outline(&Clip::SCREEN, (4, 4), (1, 1), &mut out);
    let set = pixels(&out);
    assert_eq!(picture(&set, (1, 1), (4, 4)), "####\n#..#\n#..#\n####");
    assert_eq!(out.iter().map(Span::len).sum::<usize>(), set.len());
    out.clear();
    rect_outline(&Clip::SCREEN, (7, 7), (7, 7), &mut out);
    assert_eq!(out, [Span { y: 7, x0: 7, x1: 7 }]);
}

#[test]
fn degenerate_triangles_are_their_edges() {
    let mut out = Vec::new();
    triangle_fill(&Clip::SCREEN, [(0, 0), (4, 4), (8, 8)], &mut out);
    let set = pixels(&out);
    assert_eq!(set.len(), 9);
    assert!(set.iter().all(|(x, y)| x == y));
}

#[test]
fn clips_are_cut_to_the_screen() {
    assert_eq!(Clip::new(-10, -10, 1000, 1000), Clip::SCREEN);
    let empty = Clip::new(300, 10, 5, 5);
    assert_eq!((empty.x0, empty.x1), (256, 256));
    let reversed = Clip::new(10, 10, -5, 20);
    assert_eq!(reversed.x0, reversed.x1);
    let mut out = Vec::new();
    rect_fill(&reversed, (0, 0), (255, 255), &mut out);
    assert!(out.is_empty());
}
