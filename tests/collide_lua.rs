//! The collision unit as a cart uses it from Lua: a body walks up and down every slope of the
//! catalogue, climbs a ladder and stands on a one-way floor; hitbox pairs; costs.

mod common;

use common::console;
use kairo::console::Console;
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
            "main.lua:1: hb_add: argument 2 (group) is 40, must be 0..31",
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

// ---------------------------------------------------------------------------------------
// Cell sizes: the same carts at 8, 16 and 32 px, every length in them scaled by C / 16.

const CELLS: [u32; 3] = [8, 16, 32];

/// The collide names of the test tileset's tiles, and the map characters for them.
const TILESET: &[(char, &str)] = &[
    ('#', "solid"),
    ('/', "slope_1_1_up"),
    ('\\', "slope_1_1_down"),
    ('a', "slope_1_2_up_a"),
    ('b', "slope_1_2_up_b"),
    ('c', "slope_1_2_down_a"),
    ('d', "slope_1_2_down_b"),
    ('=', "oneway"),
    ('H', "ladder"),
    ('I', "ice"),
    ('^', "hazard"),
];

/// A one-colour strip of `count` tiles of `cell` px.
fn strip_png(cell: u32, count: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, cell * count, cell);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let data = vec![90u8; (cell * count * cell) as usize];
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

/// A console running `main` in a cart whose Tiled map `m` (cells of `cell` px, drawn as
/// Tiled saves it) has a layer `ground` from `rows`, one character per cell (see
/// [`TILESET`]; `.` is empty). `main` sees the cell size as the global `C`.
fn map_cart(cell: u32, rows: &[&str], main: &str) -> Console {
    let count = TILESET.len() as u32;
    let (cols, height) = (rows[0].len(), rows.len());
    let tiles: String = TILESET
        .iter()
        .enumerate()
        .map(|(id, (_, name))| {
            format!(
                "<tile id=\"{id}\"><properties><property name=\"collide\" value=\"{name}\"/></properties></tile>"
            )
        })
        .collect();
    let data: Vec<String> = rows
        .iter()
        .flat_map(|row| row.chars())
        .map(|ch| {
            let gid = TILESET
                .iter()
                .position(|(c, _)| *c == ch)
                .map_or(0, |i| i + 1);
            gid.to_string()
        })
        .collect();
    let tmx = format!(
        r#"<map orientation="orthogonal" width="{cols}" height="{height}" tilewidth="{cell}" tileheight="{cell}">
 <tileset firstgid="1" name="t" tilewidth="{cell}" tileheight="{cell}" tilecount="{count}" columns="{count}">
  <image source="t.png" width="{}" height="{cell}"/>
  {tiles}
 </tileset>
 <layer name="ground" width="{cols}" height="{height}"><data encoding="csv">{}</data></layer>
</map>"#,
        cell * count,
        data.join(",")
    );
    let main = format!("C = {cell}\n{main}");
    let png = strip_png(cell, count);
    let cart = common::cart_with(&[
        ("cart.toml", b"name = \"test\"\n[[map]]\nfile = \"m.tmx\"\n"),
        ("main.lua", main.as_bytes()),
        ("m.tmx", tmx.as_bytes()),
        ("t.png", &png),
    ]);
    Console::new(cart).expect("test cart boots")
}

fn run_console(mut c: Console, frames: usize) -> Vec<String> {
    let mut lines = c.take_log();
    for _ in 0..frames {
        c.run_frame(InputFrame::NONE)
            .unwrap_or_else(|e| panic!("{e}"));
        lines.extend(c.take_log());
    }
    lines
}

/// Hills of 45 degree and 1:2 slopes, a one-way floor, a ladder, ice, a wall and a ceiling.
const COURSE_ROWS: &[&str] = &[
    "##############################",
    "..............................",
    "..................====...H....",
    "........................#H....",
    "..../##\\...ab##cd........H..#.",
    "##########################IIII",
];

#[test]
fn a_map_of_8_16_or_32_px_cells_loads_and_every_rule_holds_at_its_size() {
    let main = r#"
        local cols, rows = col_load("m", "ground")
        log("layer", cols, rows, col_get(4, 4), col_get(26, 5))
        local s = C / 16
        local h = 16 * s
        local b = {x = 16 * s, y = 5 * C - h, w = 12 * s, h = h, vx = 0, vy = 0}
        local seen, airborne, top = {}, 0, 1e9
        -- Walk right over the hills to the wall.
        for _ = 1, 400 do
          b.vx, b.vy = 2 * s, 0.5 * s
          local flags, slope = move_body(b, "ground")
          if flags & COL.GROUND == 0 then airborne = airborne + 1 end
          if slope then seen[#seen + 1] = slope end
          top = math.min(top, b.y + h)
          if flags & COL.WALL_RIGHT ~= 0 then break end
        end
        local kinds = {}
        for _, name in ipairs(seen) do kinds[name] = true end
        local names = {}
        for name in pairs(kinds) do names[#names + 1] = name end
        table.sort(names)
        log("walked", airborne, top / C, (b.x + b.w) / C, (b.y + h) / C, table.concat(names, " "))
        -- Jump up through the one-way floor (row 2) from below and land on it.
        b.x, b.y = 19 * C, 5 * C - h
        b.vx, b.vy = 0, -3 * C
        local flags = move_body(b, "air")
        log("through", flags & (COL.GROUND | COL.CEILING), (b.y + h) / C < 3)
        for _ = 1, 100 do
          b.vx, b.vy = 0, C / 4
          flags = move_body(b, "air")
          if flags & COL.GROUND ~= 0 then break end
        end
        log("landed", flags & COL.ON_ONEWAY ~= 0, (b.y + h) / C)
        -- Drop through it to the floor.
        b.vx, b.vy = 0, 1
        move_body(b, "ground", {drop = true})
        for _ = 1, 100 do
          b.vx, b.vy = 0, C / 4
          flags = move_body(b, "air")
          if flags & COL.GROUND ~= 0 then break end
        end
        log("dropped", flags & COL.ON_ONEWAY, (b.y + h) / C)
        -- Into the ceiling (row 0) from the one-way floor.
        b.x, b.y = 19 * C, 2 * C - h
        b.vx, b.vy = 0, -C
        flags = move_body(b, "air")
        log("ceiling", flags & COL.CEILING ~= 0, b.y / C)
        -- Climb the ladder (column 25) to its top and stand there.
        b.x, b.y = 25 * C + 2 * s, 5 * C - h
        for _ = 1, 200 do
          b.vx, b.vy = 0, -s
          flags = move_body(b, "ladder")
          if flags & COL.ON_LADDER == 0 then break end
        end
        b.vx, b.vy = 0, 0.25 * s
        flags = move_body(b, "ground")
        log("ladder top", flags & COL.LADDER_TOP ~= 0, (b.y + h) / C)
        -- Down the other side onto ice, into the wall at column 29.
        b.x, b.y = 26 * C + 4 * s, 5 * C - h
        for _ = 1, 100 do
          b.vx, b.vy = 3 * s, 0.25 * s
          flags = move_body(b, "ground")
          if flags & COL.WALL_RIGHT ~= 0 then break end
        end
        log("ice", flags & COL.ON_ICE ~= 0, flags & COL.GROUND ~= 0, (b.x + b.w) / C)
        -- Gravity up: stand under the ceiling.
        b.x, b.y = 10 * C, 2 * C
        for _ = 1, 100 do
          b.vx, b.vy = 0, -C / 4
          flags = move_body(b, "air", {gravity = "up"})
          if flags & COL.GROUND ~= 0 then break end
        end
        log("upside down", b.y / C)
        function update() end
    "#;
    for cell in CELLS {
        let lines = run_console(map_cart(cell, COURSE_ROWS, main), 0);
        let expected = [
            "layer 30 6 slope_1_1_up ice",
            "walked 0 4 28 5 slope_1_1_down slope_1_1_up slope_1_2_down_a slope_1_2_down_b \
             slope_1_2_up_a slope_1_2_up_b",
            "through 0 true",
            "landed true 2",
            "dropped 0 5",
            "ceiling true 1",
            "ladder top true 2",
            "ice true true 28",
            "upside down 1",
        ];
        assert_eq!(lines, expected, "{cell} px cells");
    }
}

#[test]
fn the_course_and_ladder_carts_run_the_same_at_every_cell_size() {
    // The two carts above, on layers made with `col_size(cols, rows, C)`.
    for cell in CELLS {
        let s = f64::from(cell) / 16.0;
        let scaled = |px: f64| px * s;
        let source = format!(
            "{}
             local b = {{x = {}, y = {}, w = {}, h = {}, vx = 0, vy = 0}}
             local seen, airborne = {{}}, 0
             function update()
               b.vx, b.vy = {}, {}
               local flags, slope = move_body(b, 'ground')
               if flags & COL.GROUND == 0 then airborne = airborne + 1 end
               if slope then seen[slope] = true end
               if b.x > 37 * {cell} then
                 local n = 0
                 for _ in pairs(seen) do n = n + 1 end
                 log(n, airborne)
                 b.x = -1000
               end
             end",
            COURSE.replace("col_size(40, 12)", &format!("col_size(40, 12, {cell})")),
            scaled(8.0),
            scaled(9.0 * 16.0 - 20.0),
            scaled(10.0),
            scaled(20.0),
            scaled(2.0),
            scaled(0.5),
        );
        assert_eq!(run_logs(&source, 400), ["14 0"], "{cell} px cells");
        let ladder = format!(
            r#"
            col_size(8, 10, {cell})
            local s = {s}
            for x = 0, 7 do col_set(x, 9, "solid") end
            for y = 4, 8 do col_set(2, y, "ladder") end
            for x = 3, 6 do col_set(x, 4, "oneway") end
            local b = {{x = 34 * s, y = (9 * 16 - 16) * s, w = 12 * s, h = 16 * s, vx = 0, vy = 0}}
            local phase = "climb"
            function update()
              if phase == "climb" then
                b.vx, b.vy = 0, -2 * s
                if move_body(b, "ladder") & COL.ON_LADDER == 0 then phase = "step" end
              elseif phase == "step" then
                b.vx, b.vy = 2 * s, 1 * s
                if move_body(b, "air") & COL.ON_ONEWAY ~= 0 then phase = "stand" end
              elseif phase == "stand" then
                b.vx, b.vy = 0, 1 * s
                local flags = move_body(b, "ground")
                log("standing", flags & COL.GROUND ~= 0, b.y / s)
                phase = "done"
              end
            end"#
        );
        assert_eq!(
            run_logs(&ladder, 120),
            ["standing true 48"],
            "{cell} px cells"
        );
    }
}

#[test]
fn cell_sizes_are_checked_and_cell_coordinates_stay_cells() {
    let mut c = console(
        "col_size(4, 3, 8)
         col_set(3, 2, 'solid')
         log(col_get(3, 2), col_get(4, 2), col_get(0, 0))
         col_size(4, 3)
         log(col_get(3, 2))",
    );
    assert_eq!(c.take_log(), ["solid solid empty", "empty"]);
    for call in [
        "col_size(4, 4, 12)",
        "col_size(4, 4, 0)",
        "col_size(4, 4, -16)",
    ] {
        let mut c = console(&format!("function update() {call} end"));
        let err = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
        assert!(
            err.contains("(cell) is") && err.contains("must be 8, 16 or 32"),
            "{call}: {err}"
        );
    }
    // The margin check measures drops in the layer's pixels: a one-cell step is 8 px.
    let mut c = console("function update() col_size(4, 4, 8) col_margin(8, 4) end");
    let err = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(
        err.contains("a margin of 8 px is not below the smallest drop in the map (8 px)"),
        "{err}"
    );
}

#[test]
fn a_fast_move_is_charged_per_cell_sized_step() {
    use kairo::collide::map::{CellSize, CollisionMap};
    use kairo::collide::mover::{Body, Mode, MoveOptions, move_body};
    use kairo::fixed::fx;
    // 40 px a frame: 5 steps of at most 8 px, 3 of at most 16, 2 of at most 32.
    for (size, steps) in [(CellSize::Px8, 5), (CellSize::Px16, 3), (CellSize::Px32, 2)] {
        let cell = size.px();
        let mut c = console(&format!(
            "col_size(64, 8, {cell})
             function update() move_body({{x = 20, y = 20, w = 6, h = 6, vx = 40, vy = 0}}, 'air') end"
        ));
        let report = c.run_frame(InputFrame::NONE).unwrap();
        let mut body = Body {
            x: fx(20),
            y: fx(20),
            w: 6,
            h: 6,
            vx: fx(40),
            vy: 0,
        };
        let options = MoveOptions {
            mode: Mode::Air,
            ..MoveOptions::default()
        };
        let moved = move_body(&CollisionMap::sized(64, 8, size), &mut body, &options);
        assert_eq!(moved.steps, steps, "{cell} px");
        assert_eq!(
            report.cycles.get(Unit::Collision),
            cost::MOVE_BODY
                + u64::from(steps - 1) * cost::MOVE_STEP
                + u64::from(moved.probes) * cost::TILE_PROBE,
            "{cell} px"
        );
    }
}

#[test]
fn hostile_numbers_at_every_cell_size_are_errors_or_moves_never_panics() {
    for cell in CELLS {
        let mut c = console(&format!(
            "col_size(256, 256, {cell})
             for x = 0, 255 do col_set(x, 200, 'slope_1_2_up_a') end
             function update()
               local moves = 0
               for _, v in ipairs({{0, 1e300, -1e300, 2^31, -2^31, 32767.99, -32768, 16400}}) do
                 col_platform(1, v, -v, 4096, 4096, v, v)
                 col_platform(2, -v, v, 1, 1, -v, -v)
                 local b = {{x = v, y = v, w = 1024, h = 1024, vx = 0, vy = 0, platform = 1}}
                 move_body(b, 'ground')
                 b = {{x = v, y = v, w = 40, h = 40, vx = v, vy = -v, platform = 2}}
                 move_body(b, 'ground')
                 b = {{x = v, y = -v, w = 1, h = 1, vx = -v, vy = v}}
                 move_body(b, 'air', {{gravity = 'up', slope_speed = true}})
                 move_body(b, 'ladder', {{drop = true}})
                 moves = moves + 4
                 col_get(math.floor(math.max(-2^53, math.min(2^53, v))), 3)
               end
               local nan = 0/0
               pcall(move_body, {{x = nan, y = 0, w = 1, h = 1, vx = nan, vy = 0}})
               pcall(col_platform, 3, nan, 0, 1, 1)
               pcall(col_set, 2^40, 0, 'solid')
               log('ok', moves)
             end"
        ));
        c.run_frame(InputFrame::NONE)
            .unwrap_or_else(|e| panic!("{cell} px: {e}"));
        assert_eq!(c.take_log(), ["ok 32"], "{cell} px");
    }
}

#[test]
fn the_api_docs_state_the_cell_sizes_and_the_limits_of_the_spec() {
    use kairo::script::api::all_functions;
    use kairo::spec::{BODY_MAX_COORD, BODY_MAX_SPEED, COLLISION_CELL, COLLISION_CELL_SIZES};
    let doc = |name: &str| {
        all_functions()
            .find(|f| f.name == name)
            .map(|f| f.doc.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap()
    };
    let [a, b, c] = COLLISION_CELL_SIZES;
    assert!(doc("col_size").contains(&format!("({a}, {b} or {c}; default {COLLISION_CELL})")));
    assert!(doc("col_load").contains(&format!("({a}, {b} or {c} px)")));
    let move_doc = doc("move_body");
    assert!(
        move_doc.contains(&format!("+-{BODY_MAX_COORD} px")),
        "{move_doc}"
    );
    assert!(
        move_doc.contains(&format!("{BODY_MAX_SPEED} px a frame")),
        "{move_doc}"
    );
}

#[test]
fn a_body_size_out_of_range_is_an_error_as_a_platforms_is() {
    // One rule for out of range (docs/api.md): sizes are refused, not clamped.
    for (call, says) in [
        (
            "move_body({x = 0, y = 0, w = 0, h = 8, vx = 0, vy = 0})",
            "move_body: body.w is 0, must be 1..4096",
        ),
        (
            "move_body({x = 0, y = 0, w = 8, h = 5000, vx = 0, vy = 0})",
            "move_body: body.h is 5000, must be 1..4096",
        ),
        (
            "col_platform(1, 0, 0, 5000, 8)",
            "col_platform: argument 4 (w) is 5000, must be 1..4096",
        ),
    ] {
        let mut console = common::console(&format!("function update() {call} end"));
        let error = console
            .run_frame(kairo::input::InputFrame::NONE)
            .unwrap_err();
        assert!(error.to_string().contains(says), "{error}");
    }
}
