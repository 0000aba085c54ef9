//! BulletML: each element with positions at exact frames, the reference's timing, errors.

use super::parse;
use crate::bullets::angle::{fine_from_degrees, unit_vector};
use crate::bullets::unit::{BulletUnit, Player};
use crate::fixed::{Fx, fx, fx_from_f64, fx_to_f64};
use crate::rng::Rng;

/// A unit with the player below the source, running `xml` from (128, 50).
pub(super) struct Harness {
    pub unit: BulletUnit,
    patterns: Vec<super::Pattern>,
    rng: Rng,
    pub source: i64,
}

impl Harness {
    pub fn new(xml: &str) -> Harness {
        Harness::from_pattern(parse("test", xml).unwrap_or_else(|e| panic!("{e}")))
    }

    pub(crate) fn from_pattern(pattern: super::Pattern) -> Harness {
        let patterns = vec![pattern];
        let mut unit = BulletUnit::default();
        unit.cull_margin = 4000;
        unit.player = Some(Player {
            x: fx(128),
            y: fx(200),
            ..Player::default()
        });
        let source = unit
            .start_pattern(&patterns, 0, fx(128), fx(50), 0)
            .unwrap();
        Harness {
            unit,
            patterns,
            rng: Rng::new(1),
            source,
        }
    }

    /// One frame; returns the number of bullets alive after it.
    pub fn frame(&mut self) -> usize {
        self.unit.release_pending();
        self.unit.run_programs(&mut self.rng, &self.patterns);
        self.unit.advance();
        self.unit.table.len()
    }

    /// Bullet counts after each of `n` frames.
    pub fn counts(&mut self, n: usize) -> Vec<usize> {
        (0..n).map(|_| self.frame()).collect()
    }

    pub(crate) fn source_alive(&self) -> bool {
        self.unit.sources.iter().any(|s| s.id == self.source)
    }

    fn positions(&self) -> Vec<(Fx, Fx)> {
        (0..self.unit.table.len())
            .map(|i| (self.unit.table.x[i], self.unit.table.y[i]))
            .collect()
    }
}

pub(super) fn wrap_top(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<bulletml>\n<action label=\"top\">{body}</action>\n</bulletml>"
    )
}

/// Where a bullet from (128, 50) with BulletML `degrees` and `speed` is after `moves` moves.
fn at(degrees: f64, speed: f64, moves: i32) -> (Fx, Fx) {
    let (ux, uy) = unit_vector(degrees);
    let (vx, vy) = (fx_from_f64(ux * speed), fx_from_f64(uy * speed));
    (fx(128) + vx * moves, fx(50) + vy * moves)
}

#[test]
fn fire_defaults_to_aim_and_speed_1_and_moves_from_the_next_frame_on() {
    let mut h = Harness::new(&wrap_top("<fire><bullet/></fire>"));
    h.frame();
    assert_eq!(
        h.positions(),
        vec![at(180.0, 1.0, 1)],
        "aimed straight down at the player"
    );
    h.frame();
    h.frame();
    assert_eq!(h.positions(), vec![at(180.0, 1.0, 3)]);
}

#[test]
fn wait_n_fires_again_n_turns_later_and_the_source_ends_after_its_last_wait() {
    let mut h = Harness::new(&wrap_top(
        "<fire><bullet/></fire><wait>10</wait><fire><bullet/></fire>",
    ));
    let counts = h.counts(12);
    assert_eq!(counts[0], 1);
    assert_eq!(counts[9], 1, "turn 9: still one");
    assert_eq!(counts[10], 2, "turn 10: the second fire");
    assert!(!h.source_alive(), "ended at turn 11");
    let mut h = Harness::new(&wrap_top(
        "<repeat><times>3</times><action><fire><bullet/></fire><wait>5</wait></action></repeat>",
    ));
    let counts = h.counts(16);
    let fired_on: Vec<usize> = (0..16)
        .filter(|&t| counts[t] > if t == 0 { 0 } else { counts[t - 1] })
        .collect();
    assert_eq!(fired_on, [0, 5, 10]);
    assert!(
        !h.source_alive(),
        "ended at turn 15 after the trailing wait"
    );
}

#[test]
fn zero_and_negative_waits_do_nothing_and_repeat_runs_at_least_once() {
    let mut h = Harness::new(&wrap_top(
        "<fire><bullet/></fire><wait>0</wait><wait>-3</wait><repeat><times>0</times><action><fire><bullet/></fire></action></repeat>",
    ));
    assert_eq!(h.frame(), 2);
}

#[test]
fn direction_types_and_speed_types_in_fire() {
    let xml = wrap_top(
        "<fire><direction type=\"absolute\">90</direction><speed>2</speed><bullet/></fire>\
         <fire><direction type=\"aim\">30</direction><speed type=\"relative\">0.5</speed><bullet/></fire>\
         <fire><direction type=\"relative\">-45</direction><bullet/></fire>\
         <fire><direction type=\"sequence\">10</direction><speed type=\"sequence\">1</speed><bullet/></fire>",
    );
    let mut h = Harness::new(&xml);
    h.frame();
    let mut got = h.positions();
    // relative is to the source's own heading (180, down); speed relative to its speed (0).
    let mut expected = vec![
        at(90.0, 2.0, 1),
        at(210.0, 0.5, 1),
        at(135.0, 1.0, 1),
        at(145.0, 2.0, 1),
    ];
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
}

#[test]
fn the_first_sequence_of_a_runner_aims_with_speed_1() {
    let mut h = Harness::new(&wrap_top(
        "<fire><direction type=\"sequence\">77</direction><speed type=\"sequence\">5</speed><bullet/></fire>",
    ));
    h.frame();
    assert_eq!(h.positions(), vec![at(180.0, 1.0, 1)]);
}

#[test]
fn a_bullets_own_direction_and_speed_override_its_fires() {
    let mut h = Harness::new(&wrap_top(
        "<fire><direction type=\"absolute\">0</direction><speed>9</speed><bullet><direction type=\"absolute\">45</direction><speed>2</speed></bullet></fire>",
    ));
    h.frame();
    assert_eq!(h.positions(), vec![at(45.0, 2.0, 1)]);
}

/// A bullet fired at turn 0 heading `start` at speed 1 whose own action runs `body`.
fn bullet_with(body: &str) -> Harness {
    Harness::new(&wrap_top(&format!(
        "<fire><direction type=\"absolute\">90</direction><speed>1</speed><bullet><action>{body}</action></bullet></fire>"
    )))
}

fn heading(h: &Harness) -> u16 {
    h.unit.table.angle[0]
}

#[test]
fn change_direction_lands_exactly_on_term_and_turns_the_short_way() {
    // The bullet's script first runs on turn 1 (the turn after it was fired); the change
    // interpolates from there and reaches 180 on turn 1 + 4.
    let mut h = bullet_with(
        "<changeDirection><direction type=\"absolute\">180</direction><term>4</term></changeDirection>",
    );
    let mut seen = Vec::new();
    for _ in 0..7 {
        h.frame();
        seen.push(heading(&h));
    }
    let expected: Vec<u16> = [90.0, 90.0, 112.5, 135.0, 157.5, 180.0, 180.0]
        .iter()
        .map(|d| fine_from_degrees(*d))
        .collect();
    assert_eq!(seen, expected);
    // From 90 to 350 the short way is -100 degrees.
    let mut h = bullet_with(
        "<changeDirection><direction type=\"absolute\">350</direction><term>2</term></changeDirection>",
    );
    h.counts(3);
    assert_eq!(heading(&h), fine_from_degrees(40.0));
    h.frame();
    assert_eq!(heading(&h), fine_from_degrees(-10.0));
}

#[test]
fn a_sequence_change_direction_adds_its_value_every_frame() {
    let mut h = bullet_with(
        "<changeDirection><direction type=\"sequence\">3</direction><term>5</term></changeDirection>",
    );
    let mut seen = Vec::new();
    for _ in 0..8 {
        h.frame();
        seen.push(heading(&h));
    }
    let expected: Vec<u16> = [90.0, 90.0, 93.0, 96.0, 99.0, 102.0, 105.0, 105.0]
        .iter()
        .map(|d| fine_from_degrees(*d))
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn change_speed_and_accel_follow_their_terms() {
    let mut h = bullet_with("<changeSpeed><speed>3</speed><term>2</term></changeSpeed>");
    let speeds: Vec<Fx> = (0..4)
        .map(|_| {
            h.frame();
            h.unit.table.speed[0]
        })
        .collect();
    assert_eq!(speeds, vec![fx(1), fx(1), fx(2), fx(3)]);
    let mut h = bullet_with(
        "<changeSpeed><speed type=\"sequence\">0.5</speed><term>2</term></changeSpeed>",
    );
    let speeds: Vec<Fx> = (0..4)
        .map(|_| {
            h.frame();
            h.unit.table.speed[0]
        })
        .collect();
    assert_eq!(speeds, vec![fx(1), fx(1), fx_from_f64(1.5), fx(2)]);
    // Vertical accel pushes down: after turn 1 + 2 the bullet's velocity gains 2 px down.
    let mut h = bullet_with("<accel><vertical>2</vertical><term>2</term></accel>");
    h.counts(4);
    assert_eq!((h.unit.table.vx[0], h.unit.table.vy[0]), (fx(1), fx(2)));
}

#[test]
fn vanish_removes_the_bullet() {
    let mut h = bullet_with("<wait>3</wait><vanish/>");
    let counts = h.counts(6);
    assert_eq!(counts, [1, 1, 1, 1, 0, 0], "vanishes on turn 1 + 3 = 4");
}

#[test]
fn references_pass_parameters_and_missing_ones_read_1() {
    let xml = "<bulletml>\
        <action label=\"top\"><actionRef label=\"burst\"><param>3</param><param>2.5</param></actionRef><fireRef label=\"plain\"/></action>\
        <action label=\"burst\"><repeat><times>$1</times><action><fireRef label=\"aimed\"><param>$2</param></fireRef></action></repeat></action>\
        <fire label=\"aimed\"><direction type=\"absolute\">0</direction><bulletRef label=\"fast\"><param>$1*2</param></bulletRef></fire>\
        <fire label=\"plain\"><direction type=\"absolute\">$1*90</direction><speed>$2</speed><bullet/></fire>\
        <bullet label=\"fast\"><speed>$1</speed></bullet>\
        </bulletml>";
    let mut h = Harness::new(xml);
    h.frame();
    let mut got = h.positions();
    got.sort();
    let mut expected = vec![
        at(0.0, 5.0, 1),
        at(0.0, 5.0, 1),
        at(0.0, 5.0, 1),
        at(90.0, 1.0, 1),
    ];
    expected.sort();
    assert_eq!(got, expected);
}

#[test]
fn rank_and_rand_come_from_the_machine() {
    let xml = wrap_top(
        "<fire><direction type=\"absolute\">$rank*360</direction><speed>1+$rand</speed><bullet/></fire>",
    );
    let mut h = Harness::new(&xml);
    h.unit.rank = 0.25;
    h.frame();
    let mut rng = Rng::new(1);
    let speed = 1.0 + rng.next_f64();
    assert_eq!(h.positions(), vec![at(90.0, speed, 1)]);
}

#[test]
fn horizontal_patterns_turn_absolute_directions_a_quarter() {
    let xml = "<bulletml type=\"horizontal\"><action label=\"top\"><fire><direction type=\"absolute\">180</direction><bullet/></fire></action></bulletml>";
    let mut h = Harness::new(xml);
    h.frame();
    assert_eq!(h.positions(), vec![at(90.0, 1.0, 1)]);
}

#[test]
fn several_top_actions_run_together_and_the_source_ends_with_the_first() {
    let xml = "<bulletml>\
        <action label=\"top1\"><fire><bullet/></fire><wait>2</wait></action>\
        <action label=\"top2\"><fire><bullet/></fire><wait>30</wait><fire><bullet/></fire></action>\
        </bulletml>";
    let mut h = Harness::new(xml);
    assert_eq!(h.frame(), 2);
    h.counts(5);
    assert!(!h.source_alive());
}

#[test]
fn the_same_pattern_replays_to_the_same_frames() {
    let xml = wrap_top(
        "<repeat><times>40</times><action><fire><direction type=\"sequence\">13</direction><speed>1+$rand</speed>\
         <bullet><action><wait>20</wait><changeDirection><direction type=\"aim\">0</direction><term>30</term></changeDirection></action></bullet></fire><wait>2</wait></action></repeat>",
    );
    let run = || {
        let mut h = Harness::new(&xml);
        (0..150)
            .map(|_| {
                h.frame();
                crate::hash::fnv1a64(
                    &h.positions()
                        .iter()
                        .flat_map(|(x, y)| [x.to_le_bytes(), y.to_le_bytes()].concat())
                        .collect::<Vec<u8>>(),
                )
            })
            .collect::<Vec<u64>>()
    };
    let first = run();
    assert_eq!(first, run());
    assert_eq!(
        first
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        150
    );
}

#[test]
fn malformed_cyclic_and_dangling_patterns_are_errors_with_the_element_path() {
    let cases = [
        (
            "<bulletml><action label=\"top\"><actionRef label=\"a\"/></action><action label=\"a\"><actionRef label=\"b\"/></action><action label=\"b\"><wait>1</wait><actionRef label=\"a\"/></action></bulletml>",
            "references loop: action[a] -> action[b] -> action[a]",
        ),
        (
            "<bulletml><action label=\"top\"><fireRef label=\"nope\"/></action></bulletml>",
            "bulletml/action[top]/fireRef[nope]: no <fire> labelled \"nope\"",
        ),
        (
            "<bulletml><action label=\"top\"><repeat><action/></repeat></action></bulletml>",
            "bulletml/action[top]/repeat: <repeat> needs <times>",
        ),
        (
            "<bulletml><action label=\"top\"><wait>1+</wait></action></bulletml>",
            "bulletml/action[top]/wait: the expression ends too early",
        ),
        (
            "<bulletml><action label=\"top\"><fire><bullet/></fire>",
            "malformed XML",
        ),
        (
            "<bulletml><action label=\"main\"/></bulletml>",
            "no <action> labelled \"top\"",
        ),
        (
            "<bulletml><action label=\"top\"><explode/></action></bulletml>",
            "bulletml/action[top]/explode: <explode> cannot appear in <action>",
        ),
        (
            "<bulletml><action label=\"top\"><fire><direction type=\"diagonal\">1</direction><bullet/></fire></action></bulletml>",
            "direction type \"diagonal\"",
        ),
    ];
    for (xml, expected) in cases {
        let err = parse("bad", xml).unwrap_err().to_string();
        assert!(err.contains(expected), "expected `{expected}` in `{err}`");
    }
}

/// The headings (BulletML degrees) of the bullets alive, sorted.
fn headings(h: &Harness) -> Vec<f64> {
    let mut d: Vec<f64> = (0..h.unit.table.len())
        .map(|i| crate::bullets::angle::degrees_from_fine(h.unit.table.angle[i]))
        .map(|d| (d * 100.0).round() / 100.0)
        .collect();
    d.sort_by(f64::total_cmp);
    d
}

#[test]
fn a_bullets_action_refs_take_params_it_evaluates_against_its_own() {
    // rRootage's morph/6gt.xml in small: each bullet turns by its actionRef's param.
    let xml = "<bulletml>\
        <action label=\"top\"><fire><direction type=\"absolute\">0</direction><bulletRef label=\"b\"><param>30</param></bulletRef></fire>\
        <fire><direction type=\"absolute\">0</direction><bulletRef label=\"b\"><param>-50</param></bulletRef></fire></action>\
        <bullet label=\"b\"><actionRef label=\"turn\"><param>$1*2</param></actionRef></bullet>\
        <action label=\"turn\"><changeDirection><direction type=\"relative\">$1</direction><term>1</term></changeDirection></action>\
        </bulletml>";
    let mut h = Harness::new(xml);
    h.counts(3);
    assert_eq!(headings(&h), [60.0, 260.0]);
}

#[test]
fn a_repeated_action_ref_evaluates_its_params_every_iteration() {
    let xml = "<bulletml>\
        <action label=\"top\"><repeat><times>3</times><actionRef label=\"shot\"><param>$rand*360</param></actionRef></repeat></action>\
        <action label=\"shot\"><fire><direction type=\"absolute\">$1</direction><bullet/></fire></action>\
        </bulletml>";
    let mut h = Harness::new(xml);
    h.frame();
    let mut rng = Rng::new(1);
    let mut expected: Vec<f64> = (0..3)
        .map(|_| {
            let d = rng.next_f64() * 360.0;
            let d = crate::bullets::angle::degrees_from_fine(fine_from_degrees(d));
            (d * 100.0).round() / 100.0
        })
        .collect();
    expected.sort_by(f64::total_cmp);
    assert_eq!(headings(&h), expected, "three draws, not one");
}

#[test]
fn a_bullet_runs_its_inline_actions_before_its_references() {
    // The actionRef comes first in the document, yet the inline action (vanish after 2
    // turns) runs first: the bullet never turns.
    let xml = "<bulletml>\
        <action label=\"top\"><fire><direction type=\"absolute\">90</direction><bullet>\
        <actionRef label=\"turn\"/><action><wait>2</wait><vanish/></action></bullet></fire></action>\
        <action label=\"turn\"><changeDirection><direction type=\"absolute\">180</direction><term>1</term></changeDirection></action>\
        </bulletml>";
    let mut h = Harness::new(xml);
    let mut seen = Vec::new();
    for _ in 0..4 {
        h.frame();
        seen.push(headings(&h));
    }
    assert_eq!(seen, [vec![90.0], vec![90.0], vec![90.0], vec![]]);
}

#[test]
fn a_change_directions_target_is_the_previous_direction_for_sequence() {
    let mut h = bullet_with(
        "<changeDirection><direction type=\"absolute\">200</direction><term>5</term></changeDirection>\
         <fire><direction type=\"sequence\">10</direction><bullet/></fire>",
    );
    h.counts(3);
    // The child: 200 + 10, though its parent has only turned to 112 yet.
    assert_eq!(headings(&h), [112.0, 210.0]);
}

#[test]
fn accel_of_every_type_in_vertical_and_horizontal_patterns() {
    // A bullet heading right at speed 1; each accel lands after its term.
    let velocity = |pattern_type: &str, accel: &str, frames: usize| {
        let xml = format!(
            "<bulletml type=\"{pattern_type}\"><action label=\"top\"><fire><direction type=\"relative\">-90</direction><speed>1</speed>\
             <bullet><action><accel>{accel}<term>4</term></accel><wait>4</wait><accel>{accel}<term>2</term></accel></action></bullet></fire></action></bulletml>"
        );
        let mut h = Harness::new(&xml);
        h.counts(frames);
        (fx_to_f64(h.unit.table.vx[0]), fx_to_f64(h.unit.table.vy[0]))
    };
    // Absolute: the velocity it reaches; twice the same value changes nothing more.
    let absolute = "<horizontal>0.5</horizontal><vertical>2</vertical>";
    assert_eq!(velocity("vertical", absolute, 6), (1.5, 2.0));
    assert_eq!(velocity("vertical", absolute, 10), (1.5, 2.0));
    // Halfway through the first term (it starts on turn 1, the bullet's first).
    assert_eq!(velocity("vertical", absolute, 4), (1.25, 1.0));
    // Relative: added to the current accel each time.
    let relative =
        "<horizontal type=\"relative\">0.5</horizontal><vertical type=\"relative\">-1</vertical>";
    assert_eq!(velocity("vertical", relative, 6), (1.5, -1.0));
    assert_eq!(velocity("vertical", relative, 10), (2.0, -2.0));
    // Sequence: added every turn of the term.
    let sequence = "<vertical type=\"sequence\">0.25</vertical>";
    assert_eq!(velocity("vertical", sequence, 6), (1.0, 1.0));
    assert_eq!(velocity("vertical", sequence, 10), (1.0, 1.5));
    // Horizontal patterns: x follows <vertical>, y minus <horizontal> (relative directions
    // do not turn, so the bullet still heads right).
    assert_eq!(velocity("horizontal", absolute, 6), (3.0, -0.5));
}

#[test]
fn a_looping_source_restarts_the_frame_after_it_ends_keeping_its_heading() {
    let xml = wrap_top(
        "<fire><direction type=\"relative\">0</direction><bullet/></fire>\
         <changeDirection><direction type=\"relative\">90</direction><term>1</term></changeDirection><wait>2</wait>",
    );
    let mut h = Harness::new(&xml);
    h.unit.source_mut(h.source).unwrap().looping = true;
    let counts = h.counts(9);
    // Fires on turns 0, 3 and 6 (ended on turns 2 and 5), each time a quarter turn on:
    // 180, 270, then 360 (kept as 360, as libbulletml does; 0 in the table).
    assert_eq!(counts, [1, 1, 1, 2, 2, 2, 3, 3, 3]);
    assert_eq!(headings(&h), [0.0, 180.0, 270.0]);
    assert!(h.source_alive());
}

#[test]
fn bullets_fly_along_their_exact_heading() {
    let mut h = Harness::new(&wrap_top(
        "<fire><direction type=\"absolute\">37.3</direction><speed>3.7</speed><bullet/></fire>",
    ));
    h.counts(60);
    let (x, y) = (fx_to_f64(h.unit.table.x[0]), fx_to_f64(h.unit.table.y[0]));
    let radians = 37.3f64.to_radians();
    let (ex, ey) = (
        128.0 + 60.0 * 3.7 * radians.sin(),
        50.0 - 60.0 * 3.7 * radians.cos(),
    );
    assert!(
        (x - ex).abs() < 0.001 && (y - ey).abs() < 0.001,
        "({x}, {y}) against ({ex}, {ey})"
    );
}
