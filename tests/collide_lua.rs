//! The collision unit as a cart uses it from Lua: a body walks up and down every slope of the
//! catalogue, climbs a ladder and stands on a one-way floor; hitbox pairs; costs.

mod common;

use common::console;
use kairo::input::InputFrame;
use kairo::meter::Unit;
use kairo::spec::cost;

fn run_logs(source: &str, frames: usize) -> Vec<String> {
    let mut c = console(source);
    let mut lines = c.take_log();
    for _ in 0..frames {
        c.run_frame(InputFrame::NONE)
            .unwrap_or_else(|e| panic!("{e}"));
        lines.extend(c.take_log());
    }
    lines
}

/// A course with every catalogue slope: flat, 1:4 up, 1:2 up, 45 up, flat top, 45 down,
/// 1:2 down, 1:4 down, flat. Row 9 is the floor; slopes rise in rows 8, 7, 6.
const COURSE: &str = r#"
col_size(40, 12)
local function row(y, from, names)
  for i, name in ipairs(names) do col_set(from + i - 1, y, name) end
end
for x = 0, 39 do col_set(x, 10, "solid") col_set(x, 11, "solid") end
for x = 0, 39 do col_set(x, 9, "solid") end
row(8, 3, {"slope_1_4_up_a", "slope_1_4_up_b", "slope_1_4_up_c", "slope_1_4_up_d"})
for x = 7, 32 do col_set(x, 8, "solid") end
row(7, 8, {"slope_1_2_up_a", "slope_1_2_up_b"})
for x = 10, 29 do col_set(x, 7, "solid") end
row(6, 11, {"slope_1_1_up"})
for x = 12, 17 do col_set(x, 6, "solid") end
row(6, 18, {"slope_1_1_down"})
row(7, 30, {"slope_1_2_down_a", "slope_1_2_down_b"})
row(8, 33, {"slope_1_4_down_a", "slope_1_4_down_b", "slope_1_4_down_c", "slope_1_4_down_d"})
"#;

#[test]
fn a_body_walks_up_and_down_every_slope_in_the_catalogue() {
    let source = format!(
        "{COURSE}
         local b = {{x = 8, y = 9 * 16 - 20, w = 10, h = 20, vx = 0, vy = 0}}
         local seen, airborne = {{}}, 0
         function update()
           b.vx, b.vy = 2, 0.5
           local flags, slope = move_body(b, 'ground')
           if flags & COL.GROUND == 0 then airborne = airborne + 1 end
           if slope then seen[slope] = true end
           if b.x > 37 * 16 then
             local names = {{}}
             for name in pairs(seen) do names[#names + 1] = name end
             table.sort(names)
             log(#names, airborne, table.concat(names, ' '))
             b.x = -1000
           end
         end"
    );
    let lines = run_logs(&source, 400);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let expected = "14 0 slope_1_1_down slope_1_1_up slope_1_2_down_a slope_1_2_down_b slope_1_2_up_a slope_1_2_up_b \
                    slope_1_4_down_a slope_1_4_down_b slope_1_4_down_c slope_1_4_down_d slope_1_4_up_a slope_1_4_up_b \
                    slope_1_4_up_c slope_1_4_up_d";
    assert_eq!(lines[0], expected);
}

#[test]
fn a_body_climbs_a_ladder_and_stands_on_a_one_way_floor() {
    let source = r#"
        col_size(8, 10)
        for x = 0, 7 do col_set(x, 9, "solid") end
        for y = 4, 8 do col_set(2, y, "ladder") end
        for x = 3, 6 do col_set(x, 4, "oneway") end
        local b = {x = 34, y = 9 * 16 - 16, w = 12, h = 16, vx = 0, vy = 0}
        local phase = "climb"
        function update()
          if phase == "climb" then
            b.vx, b.vy = 0, -2
            local flags = move_body(b, "ladder")
            if flags & COL.ON_LADDER == 0 then
              log("left the ladder at y", b.y)
              phase = "step"
            end
          elseif phase == "step" then
            b.vx, b.vy = 2, 1
            local flags = move_body(b, "air")
            if flags & COL.ON_ONEWAY ~= 0 then
              log("on the one-way floor at", b.x, b.y)
              phase = "stand"
            end
          elseif phase == "stand" then
            b.vx, b.vy = 0, 1
            local flags = move_body(b, "ground")
            log("standing", flags & COL.GROUND ~= 0, b.y)
            phase = "done"
          end
        end"#;
    let lines = run_logs(source, 120);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("left the ladder at y"), "{lines:?}");
    assert!(lines[1].starts_with("on the one-way floor at"), "{lines:?}");
    assert_eq!(lines[2], "standing true 48");
}

#[test]
fn hitbox_pairs_reach_lua_and_every_request_is_charged_to_the_collision_unit() {
    let mut c = console(
        r#"
        function update()
          hb_add(1, 0, 2, 0, 0, 16, 16)      -- player, tests group 1
          hb_add(2, 1, 0, 8, 8, 16, 16)      -- enemy
          hb_add(3, 1, 0, 100, 100, 16, 16)  -- far enemy
          local p, n = hb_pairs()
          log(n, p[1], p[2], #hb_query(10, 10, 1, 1), rect_hit(0, 0, 4, 4, 4, 0, 4, 4), point_in(3, 3, 0, 0, 4, 4))
        end"#,
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(c.take_log(), ["1 1 2 2 false true"]);
    let expected = 3 * cost::HITBOX
        + 3 * cost::HITBOX_TEST
        + (4 + 3 * cost::HITBOX_TEST)
        + 2 * cost::HITBOX_TEST;
    assert_eq!(report.cycles.get(Unit::Collision), expected);
    // The list empties each frame.
    c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(c.take_log(), ["1 1 2 2 false true"]);
}

#[test]
fn move_body_is_charged_per_call_and_per_cell_read() {
    let mut c = console(
        "col_size(8, 8) for x = 0, 7 do col_set(x, 7, 'solid') end
         local b = {x = 20, y = 96, w = 12, h = 16, vx = 1, vy = 0.5}
         function update() b.vx, b.vy = 1, 0.5 move_body(b) end",
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    let collision = report.cycles.get(Unit::Collision);
    assert!(
        collision > cost::MOVE_BODY && collision < cost::MOVE_BODY + 40,
        "{collision}"
    );
}

#[test]
fn bad_collision_requests_are_located_errors() {
    for (call, expected) in [
        (
            "col_set(0, 0, 'lava')",
            "main.lua:1: col_set: \"lava\" is not a collision tile",
        ),
        (
            "move_body({x = 1})",
            "main.lua:1: move_body: body.y must be a number, got nil",
        ),
        (
            "move_body({x=0,y=0,w=1,h=1,vx=0,vy=0}, 'fly')",
            "main.lua:1: move_body: mode \"fly\"",
        ),
        (
            "hb_add(1, 40, 0, 0, 0, 1, 1)",
            "main.lua:1: hb_add: group 40 is outside 0..31",
        ),
        (
            "col_margin(16, 4)",
            "main.lua:1: col_margin: a margin of 16 px is not below the smallest drop",
        ),
    ] {
        let mut c = console(&format!("function update() {call} end"));
        let err = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
        assert!(err.starts_with(expected), "{call}: {err}");
    }
}

#[test]
fn a_moving_platform_carries_a_body_across_a_pit() {
    // A pit from cell 2 to 11 (x 32 to 191); a platform glides over it 1 px a frame.
    let logs = run_logs(
        r#"
        col_size(16, 8)
        for x = 0, 15 do if x < 2 or x > 11 then col_set(x, 6, "solid") end end
        local p = { x = 40, y = 96, dx = 1 }
        local hero = { x = 44, y = 78, w = 10, h = 14, vx = 0, vy = 0 }
        function update()
          p.x = p.x + p.dx
          col_platform(1, p.x, p.y, 32, 8, p.dx, 0)
          hero.vx, hero.vy = 0, 1
          local flags = move_body(hero, "air")
          if frame() % 20 == 0 or frame() > 126 then
            log(frame(), hero.x, hero.y, tostring(hero.platform),
                flags & COL.ON_PLATFORM ~= 0)
          end
        end
    "#,
        128,
    );
    // Landed on the platform's top (y 96 - 14 = 82) and carried with it.
    assert!(logs.contains(&"40 81 82 1 true".to_string()), "{logs:?}");
    assert!(logs.contains(&"120 161 82 1 true".to_string()), "{logs:?}");
}
