//! PICO-8's `oval` and `ovalfill`: the ellipse that fits the box (x0, y0)-(x1, y1), both
//! corners included, drawn like `circ`/`circfill` (camera, clip, fill pattern, draw palette).
//!
//! How the pixels are chosen (docs/internals/pico8-drawing.md §2.6 has the research). For a
//! box w = x1 - x0 and h = y1 - y0 pixels wide past its first, with w and h even, the oval
//! has semi-axes a = w/2 and b = h/2 about the box's centre pixel. Each row dy from the
//! centre, on the flat part of the curve (up to where its slope is 1, dy² (a² + b²) <= b⁴),
//! reaches the whole x nearest to a·√(1 - dy²/b²) (halves up); each column dx, on the steep
//! part (dx² (a² + b²) <= a⁴), reaches the whole y nearest to b·√(1 - dx²/a²). `ovalfill`
//! fills what either reaches; `oval` draws the pixels of that fill with no neighbour outside
//! them in the row or column (its one-pixel outline). This is the sampling zepto8 does in
//! floats, done exactly in integers; for every even-sized box up to 40 x 40 where zepto8 and
//! fake-08 draw the same pixels, it draws them too. With w (or h) odd, the oval of w - 1 is
//! split at its centre column and its halves drawn a pixel apart, so every oval touches all
//! four sides of its box. PICO-8's own pixels are not checked yet.

use super::Pico8;

/// The whole number nearest to √(num / den), halves up (`num` >= 0, `den` > 0).
fn nearest_root(num: i128, den: i128) -> i128 {
    let fits = |n: i128| n == 0 || den * (2 * n - 1) * (2 * n - 1) <= 4 * num;
    let mut n = ((num as f64 / den as f64).sqrt() + 0.5).floor() as i128;
    while n > 0 && !fits(n) {
        n -= 1;
    }
    while fits(n + 1) {
        n += 1;
    }
    n
}

/// The filled oval's half width on each row dy = 0..=b from its centre, for semi-axes a, b.
fn half_widths(a: i64, b: i64) -> Vec<i64> {
    if a == 0 || b == 0 {
        return vec![a; b as usize + 1];
    }
    let (a2, b2) = (i128::from(a) * i128::from(a), i128::from(b) * i128::from(b));
    let mut widths = vec![0i64; b as usize + 1];
    // The rows of the flat part.
    for dy in 0..=b {
        let d2 = i128::from(dy) * i128::from(dy);
        if d2 * (a2 + b2) > b2 * b2 {
            break;
        }
        widths[dy as usize] = nearest_root(a2 * (b2 - d2), b2) as i64;
    }
    // The columns of the steep part: column dx reaches rows 0..=its height.
    let mut widest_at = vec![-1i64; b as usize + 1];
    for dx in 0..=a {
        let d2 = i128::from(dx) * i128::from(dx);
        if d2 * (a2 + b2) > a2 * a2 {
            break;
        }
        let height = nearest_root(b2 * (a2 - d2), a2).min(i128::from(b)) as usize;
        widest_at[height] = widest_at[height].max(dx);
    }
    let mut widest = -1;
    for dy in (0..=b as usize).rev() {
        widest = widest.max(widest_at[dy]);
        widths[dy] = widths[dy].max(widest);
    }
    widths
}

impl Pico8 {
    /// `oval` (`filled` false) and `ovalfill`: the box's corners in any order, before the
    /// camera. Returns the pixels examined.
    pub fn oval(&mut self, a: (i32, i32), b: (i32, i32), filled: bool, color: u8) -> u64 {
        let (cx, cy) = self.camera();
        let (x0, x1) = (a.0.min(b.0) - cx, a.0.max(b.0) - cx);
        let (y0, y1) = (a.1.min(b.1) - cy, a.1.max(b.1) - cy);
        let (l, t, r, bottom) = self.clip();
        // An oval that cannot touch the clip is not walked.
        if x1 < l || x0 >= r || y1 < t || y0 >= bottom {
            return 0;
        }
        let (w, h) = (i64::from(x1 - x0), i64::from(y1 - y0));
        let (ha, hb) = (w / 2, h / 2);
        let widths = half_widths(ha, hb);
        // Column and row of the centre's left/top half and of its right/bottom half.
        let (left, right) = (i64::from(x0) + ha, i64::from(x0) + w - ha);
        let (top, low) = (i64::from(y0) + hb, i64::from(y0) + h - hb);
        let mut n = 0;
        for (dy, &half) in widths.iter().enumerate() {
            let dy = dy as i64;
            let rows = [top - dy, low + dy];
            if filled {
                for row in rows {
                    n += self.span(
                        row as i32,
                        (left - half) as i32,
                        (right + half) as i32,
                        color,
                    );
                }
                continue;
            }
            // The outline: from past the row above's reach (or the centre, on the top row).
            let above = widths.get(dy as usize + 1).map_or(-1, |&w| w);
            let from = (above + 1).min(half);
            for row in rows {
                if !(i64::from(t)..i64::from(bottom)).contains(&row) {
                    continue;
                }
                for dx in from..=half {
                    self.plot((left - dx) as i32, row as i32, color);
                    self.plot((right + dx) as i32, row as i32, color);
                    n += 2;
                }
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ROM_BYTES, Rom};
    use super::*;

    fn drawn(x1: i32, y1: i32, filled: bool) -> Vec<String> {
        let mut p = Pico8::new(&Rom {
            bytes: Box::new([0; ROM_BYTES]),
        });
        p.oval((x1 + 10, y1 + 20), (10, 20), filled, 7);
        (0..=y1 + 2)
            .map(|y| {
                (0..=x1 + 2)
                    .map(|x| {
                        let on = p.screen_pixel((x + 9) as usize, (y + 19) as usize) == 7;
                        if on { '#' } else { '.' }
                    })
                    .collect::<String>()
            })
            .filter(|row| row.contains('#'))
            .map(|row| row[1..row.len() - 1].to_string())
            .collect()
    }

    #[test]
    fn ovals_are_those_zepto8_and_fake08_agree_on() {
        // Computed from a simulation of zepto8's and fake-08's ovalfill and of zepto8's oval
        // (docs/internals/pico8-drawing.md §2.6), for boxes where the two agree.
        let cases: [(i32, i32, &[&str], &[&str]); 5] = [
            (
                4,
                4,
                &[".###.", "#####", "#####", "#####", ".###."],
                &[".###.", "#...#", "#...#", "#...#", ".###."],
            ),
            (
                6,
                4,
                &["..###..", "#######", "#######", "#######", "..###.."],
                &["..###..", "##...##", "#.....#", "##...##", "..###.."],
            ),
            (
                12,
                4,
                &[
                    "...#######...",
                    ".###########.",
                    "#############",
                    ".###########.",
                    "...#######...",
                ],
                &[
                    "...#######...",
                    ".##.......##.",
                    "#...........#",
                    ".##.......##.",
                    "...#######...",
                ],
            ),
            (
                10,
                6,
                &[
                    "...#####...",
                    ".#########.",
                    "###########",
                    "###########",
                    "###########",
                    ".#########.",
                    "...#####...",
                ],
                &[
                    "...#####...",
                    ".##.....##.",
                    "#.........#",
                    "#.........#",
                    "#.........#",
                    ".##.....##.",
                    "...#####...",
                ],
            ),
            (
                4,
                10,
                &[
                    "..#..", ".###.", "#####", "#####", "#####", "#####", "#####", "#####",
                    "#####", ".###.", "..#..",
                ],
                &[
                    "..#..", ".#.#.", "#...#", "#...#", "#...#", "#...#", "#...#", "#...#",
                    "#...#", ".#.#.", "..#..",
                ],
            ),
        ];
        for (w, h, fill, outline) in cases {
            assert_eq!(drawn(w, h, true), fill, "ovalfill 0,0,{w},{h}");
            assert_eq!(drawn(w, h, false), outline, "oval 0,0,{w},{h}");
        }
    }

    #[test]
    fn odd_sized_ovals_fill_their_box_and_degenerate_ones_are_lines() {
        // Worked by hand: the oval of the even box one smaller, split at its centre.
        assert_eq!(drawn(1, 1, true), ["##", "##"]);
        assert_eq!(drawn(3, 3, true), [".##.", "####", "####", ".##."]);
        assert_eq!(drawn(3, 3, false), [".##.", "#..#", "#..#", ".##."]);
        assert_eq!(
            drawn(5, 4, true),
            [".####.", "######", "######", "######", ".####."]
        );
        assert_eq!(drawn(4, 0, true), ["#####"]);
        assert_eq!(drawn(0, 2, false), ["#", "#", "#"]);
        assert_eq!(drawn(0, 0, false), ["#"]);
    }

    #[test]
    fn half_widths_hold_for_huge_ovals() {
        // No overflow at the largest box PICO-8's coordinates allow: a round shape.
        let widths = half_widths(32767, 32767);
        assert_eq!(widths[0], 32767);
        assert!(
            widths[32767] > 0 && widths[32767] < 300,
            "{}",
            widths[32767]
        );
        assert!(widths.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(nearest_root(0, 1), 0);
        assert_eq!(nearest_root(9, 4), 2); // √2.25 = 1.5, halves up
    }
}
