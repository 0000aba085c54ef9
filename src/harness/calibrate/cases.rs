//! The calibration's cases: every library function the sandbox offers, and every cart API
//! function, each at a small and a hostile size (the largest a cart could pass without one
//! call going past the runaway cap), plus the cart assets the API cases need.

/// One case: Lua run once at power-on (`setup`, its data), and the `body` run per repetition.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: &'static str,
    pub setup: &'static str,
    pub body: &'static str,
}

impl Case {
    pub const fn new(name: &'static str, setup: &'static str, body: &'static str) -> Case {
        Case { name, setup, body }
    }

    /// What every ratio is measured against: Lua arithmetic in a loop.
    pub(crate) fn plain_loop() -> Case {
        Case::new(
            "plain loop",
            "local x = 0",
            "for i = 1, 100 do x = x + i end",
        )
    }
}

/// Data most cases share: small (`s`, 16 bytes; `t`, 16 items) and hostile (`S`, 256 KiB;
/// `T`, 60000 items) strings and tables.
const DATA: &str = r#"
s = "Kairo abc 12345!"
S = string.rep("Kairo abc 12345!", 16384)
U = string.rep("\u{263A}", 65536)
t = {} for i = 1, 16 do t[i] = i end
T = {} for i = 1, 60000 do T[i] = i end
W = {} for i = 1, 60000 do W[i] = tostring(i) end
H = {} for i = 1, 30000 do H["k" .. i] = i end
E = {} for i = 1, 30000 do E["k" .. i] = i end for i = 1, 29999 do E["k" .. i] = nil end
P = string.pack(string.rep("i4", 200), table.unpack(T, 1, 200))
function many(...) return select('#', ...) end
sink = nil
"#;

macro_rules! cases {
    ($($name:literal => $body:literal,)*) => {
        /// Every case.
        pub const CASES: &[Case] = &[$(Case::new($name, DATA, $body),)*];
    };
}

cases! {
    // Strings.
    "string.upper 16 B" => "sink = s:upper()",
    "string.upper 256 KiB" => "sink = S:upper()",
    "string.lower 256 KiB" => "sink = S:lower()",
    "string.reverse 256 KiB" => "sink = S:reverse()",
    "string.len 256 KiB" => "sink = S:len()",
    "string.byte 16 B" => "sink = s:byte(1, -1)",
    "string.byte 200 KB" => "sink = many(S:byte(1, 200000))",
    "string.char 16" => "sink = string.char(65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80)",
    "string.char 200 (unpack)" => "sink = string.char(table.unpack(T, 1, 200))",
    "string.sub 16 B" => "sink = s:sub(2, 10)",
    "string.sub 256 KiB" => "sink = S:sub(2, -2)",
    "string.rep 16 B" => "sink = s:rep(2)",
    "string.rep 256 KiB" => "sink = s:rep(16384)",
    "string.rep sep 256 KiB" => "sink = s:rep(8192, s)",
    "string.format %s 16 B" => "sink = string.format('%s', s)",
    "string.format %s 256 KiB" => "sink = string.format('%s', S)",
    "string.format %q 256 KiB" => "sink = string.format('%q', S)",
    "string.format wide fields" => "sink = string.format('%99s%-99d%99.99f', s, 7, 1.5)",
    "string.format %d x20" => "sink = string.format(string.rep('%d ', 20), 1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10)",
    "concat .. 16 B" => "sink = s .. s",
    "concat .. 256 KiB" => "sink = S .. s",
    "concat .. many" => "sink = s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. S",
    "string.pack 200 ints" => "sink = string.pack(string.rep('i4', 200), table.unpack(T, 1, 200))",
    "string.pack s 256 KiB" => "sink = string.pack('s4', S)",
    "string.unpack 200 ints" => "sink = many(string.unpack(string.rep('i4', 200), P))",
    "string.packsize" => "sink = string.packsize('i4i8d')",
    "string.find plain 256 KiB" => "sink = S:find('zzz', 1, true)",
    "string.find pattern 16 B" => "sink = s:find('%d+')",
    "string.match 256 KiB" => "sink = S:match('(%d+)z')",
    "string.gsub 256 KiB" => "sink = S:gsub('a', 'b')",
    "string.gmatch 16 B" => "for w in s:gmatch('%a+') do sink = w end",
    "tostring 256 KiB" => "sink = tostring(S)",
    // Numbers as text: integers for comparison, floats of several magnitudes.
    "tostring integer" => "sink = tostring(1234567)",
    "tostring float 1.5" => "sink = tostring(1.5)",
    "tostring float 123.456" => "sink = tostring(123.456)",
    "tostring float 1e100" => "sink = tostring(1e100)",
    "tostring float 1e300" => "sink = tostring(1e300)",
    "tostring float max" => "sink = tostring(1.7976931348623157e308)",
    "tostring float 1e-300" => "sink = tostring(1e-300)",
    "tostring float 5e-324" => "sink = tostring(5e-324)",
    "concat integer .. ''" => "sink = 1234567 .. ''",
    "concat float 0.1 .. ''" => "sink = 0.1 .. ''",
    "concat float 1e300 .. ''" => "sink = 1e300 .. ''",
    "string.format %d" => "sink = string.format('%d', 1234567)",
    "string.format %5.1f" => "sink = string.format('%5.1f', 12.25)",
    "string.format %.99f 1e308" => "sink = string.format('%.99f', 1e308)",
    "string.format %.99f 1.5" => "sink = string.format('%.99f', 1.5)",
    "string.format %.99f 1e-300" => "sink = string.format('%.99f', 1e-300)",
    "string.format %.3f 1e300" => "sink = string.format('%.3f', 1e300)",
    "string.format %f 1e100" => "sink = string.format('%f', 1e100)",
    "string.format %g 1.5" => "sink = string.format('%g', 1.5)",
    "string.format %g 1e300" => "sink = string.format('%g', 1e300)",
    "string.format %.14g 1e-300" => "sink = string.format('%.14g', 1e-300)",
    "string.format %.17g max" => "sink = string.format('%.17g', 1.7976931348623157e308)",
    "string.format %e 1e300" => "sink = string.format('%e', 1e300)",
    "string.format %.99e 1e300" => "sink = string.format('%.99e', 1e300)",
    "string.format %.99e 5e-324" => "sink = string.format('%.99e', 5e-324)",
    "string.format %a 1e300" => "sink = string.format('%a', 1e300)",
    "string.format %.99a 1e300" => "sink = string.format('%.99a', 1e300)",
    "tonumber 16 B" => "sink = tonumber('12345.5')",
    "tonumber 256 KiB" => "sink = tonumber(S)",
    "compare < 256 KiB" => "sink = S < S .. ''",
    "compare == 256 KiB" => "sink = (S == U)",
    "string as key 256 KiB" => "local k = S:sub(2) sink = H[k]",
    "utf8.len 16 B" => "sink = utf8.len(s)",
    "utf8.len 192 KiB" => "sink = utf8.len(U)",
    "utf8.char 200" => "sink = utf8.char(table.unpack(T, 1, 200))",
    "utf8.codepoint 65536" => "sink = many(utf8.codepoint(U, 1, -1))",
    "utf8.offset 192 KiB" => "sink = utf8.offset(U, 60000)",
    "utf8.codes 16 B" => "for _, c in utf8.codes(s) do sink = c end",
    // Tables and varargs.
    "table.unpack 16" => "sink = many(table.unpack(t))",
    "table.unpack 60000" => "sink = many(table.unpack(T))",
    "table.move 16" => "table.move(t, 1, 16, 2)",
    "table.move 60000" => "table.move(T, 1, 60000, 1, {})",
    "table.insert end" => "table.insert(t, 1) table.remove(t)",
    "table.insert front 60000" => "table.insert(T, 1, 0) table.remove(T, 1)",
    "table.concat 16" => "sink = table.concat(W, ',', 1, 16)",
    "table.concat 60000" => "sink = table.concat(W, ',')",
    "table.sort 16" => "table.sort(t)",
    "table.sort 60000" => "table.sort(T)",
    "table.pack 16" => "sink = table.pack(table.unpack(t))",
    "select # 60000" => "sink = many(table.unpack(T))",
    "select n 60000" => "sink = select(30000, table.unpack(T))",
    "# table 60000" => "sink = #T",
    "next/pairs 30000" => "for k, v in pairs(H) do sink = v end",
    "next/pairs emptied 30000" => "for k, v in pairs(E) do sink = v end",
    "ipairs 60000" => "for i, v in ipairs(T) do sink = v end",
    "new tables" => "sink = {1, 2, 3, x = 1}",
    "new table 60000" => "local n = {} for i = 1, 60000 do n[i] = i end sink = n",
    "setmetatable" => "sink = setmetatable({}, {__index = t})",
    "rawget rawset rawlen rawequal" => "rawset(t, 1, rawget(t, 1)) sink = rawlen(T) sink = rawequal(t, T)",
    "closures" => "sink = function() return s end",
    // Coroutines and errors.
    "coroutine.wrap" => "local f = coroutine.wrap(function(a) coroutine.yield(a) return a end) f(1) sink = f()",
    "coroutine.resume 60000 values" => "local co = coroutine.create(function(...) return ... end) sink = coroutine.resume(co, table.unpack(T))",
    "pcall error" => "sink = pcall(error, s)",
    "error with 256 KiB" => "sink = pcall(error, S)",
    // The collector.
    "collectgarbage count" => "sink = collectgarbage('count')",
    "collectgarbage step" => "sink = collectgarbage('step')",
    "collectgarbage collect" => "collectgarbage()",
    "garbage tables" => "for i = 1, 100 do sink = {i} end",
    "garbage strings 256 KiB" => "sink = S .. 'x'",
    // Math.
    "math" => "sink = math.floor(math.sin(1.5) * math.sqrt(2) + math.max(1, 2, 3) + math.abs(-4) + math.fmod(7, 3))",
    "math.random" => "sink = math.random(1, 100)",
}

macro_rules! api_cases {
    ($($name:literal => $body:literal,)*) => {
        /// Every API case.
        pub const API_CASES: &[Case] = &[$(Case::new($name, API_SETUP, $body),)*];
    };
}

/// [`DATA`] and [`API_DATA`] together.
const API_SETUP: &str = concat!(
    r#"
s = "Kairo abc 12345!"
S = string.rep("Kairo abc 12345!", 16384)
t = {} for i = 1, 16 do t[i] = i end
T = {} for i = 1, 60000 do T[i] = i end
sink = nil
"#,
    r#"
text = string.rep("KAIRO 0123456789 ", 240)
long = string.rep("x", 4000)
saved = {} for i = 1, 150 do saved[i] = "entry " .. i end
bu_type(0, 1)
bu_type(1, 2)
col_size(64, 64)
for i = 1, 60 do hb_add(i, i % 3, 7, (i * 37) % 200, (i * 53) % 200, 16, 16) end
"#
);

api_cases! {
    // System.
    "api log short" => "log('x')",
    "api log long" => "log(long)",
    "api frame cycles budget" => "sink = frame() + cycles() + budget()",
    "api rnd rndi srand" => "sink = rnd(10) + rndi(1, 6) srand(3)",
    "api math.random" => "sink = math.random(100)",
    "api math.randomseed" => "math.randomseed(7)",
    // Input.
    "api btn btnp btnword" => "sink = btn('a') or btnp('left', 1) or btnword(2)",
    // Video.
    "api pal backdrop" => "pal(1, 2, 0x123456) backdrop(0x010203)",
    "api tset tget" => "tset(5, 3, 4, 2) sink = tget(5, 3, 4)",
    "api layer_on prio scroll" => "layer_on(1) layer_prio(1, 2) scroll(1, 3, 4)",
    "api layer_size 256x256" => "layer_size(2, 256, 256, 16)",
    "api cell cellget" => "cell(0, 3, 4, 7, 1) sink = cellget(0, 3, 4)",
    "api fill 256x256" => "layer_size(3, 256, 256, 8) fill(3, 7, 1)",
    "api tanim" => "tanim(9, {9, 4, 10, 4}) tanim_clear()",
    "api tpal" => "sink = tpal(5)",
    "api linescroll 256" => "for y = 0, 255 do linescroll(0, y, y) end linescroll_clear(0)",
    "api spr 256" => "for i = 0, 255 do spr(i, i, i % 200, 1, 4) end spr_clear()",
    "api spr_hide" => "spr_hide(3)",
    "api print short" => "print('SCORE 1234', 8, 8)",
    "api print 4000" => "print(text, 0, 0)",
    "api rectfill screen" => "rectfill(0, 0, 255, 255, 3)",
    "api rect line pset" => "rect(0, 0, 255, 255, 3) line(0, 0, 255, 255, 2) pset(9, 9, 1)",
    "api line huge" => "line(-30000, -30000, 30000, 30000, 2)",
    "api cls color" => "cls(1)",
    "api circfill r8" => "circfill(128, 128, 8, 7)",
    "api circ r8" => "circ(128, 128, 8, 7)",
    "api circfill screen" => "circfill(128, 128, 200, 7)",
    "api circ huge" => "circ(128, 128, 100000, 7)",
    "api ovalfill oval" => "ovalfill(10, 20, 90, 60, 4) oval(10, 20, 90, 60, 5)",
    "api trifill tri" => "trifill(0, 0, 255, 40, 30, 255, 6) tri(0, 0, 255, 40, 30, 255, 7)",
    "api fillp rectfill" => "fillp(0x5a5a, 3) rectfill(0, 0, 255, 255, 3) fillp()",
    "api print small font" => "print('SCORE 1234', 8, 8, 7, 'small')",
    "api text_width" => "sink = text_width(long, 'small')",
    "api camera clip draw_prio" => "camera(3, 4) clip(0, 0, 100, 100) draw_prio(1) camera() clip() draw_prio(4)",
    "api sprite 8x8" => "sprite(0, 100, 100, 8, 8)",
    // Maps.
    "api map_load" => "map_load('m', 'ground', 0)",
    "api map_load 256x256" => "map_load('big', 'ground', 1)",
    "api map_size map_tile map_prop" => "sink = map_size('m') sink = map_tile('m', 1) sink = map_prop('m', 'ground', 0, 0, 'x')",
    "api map_objects 400" => "sink = map_objects('big')",
    "api map_props" => "sink = map_props('m')",
    // Collision.
    "api col_load 256x256" => "col_load('big', 'ground')",
    "api col_set col_get" => "col_set(3, 3, 'solid') sink = col_get(3, 3)",
    "api col_edges col_margin" => "col_edges(true, true, false, false) col_margin(4)",
    "api col_margin checked" => "col_margin(4, 2)",
    "api col_platform" => "pcall(col_platform, 1, 0, 0, 16, 4)",
    "api move_body" => "sink = move_body({x = 40, y = 40, w = 8, h = 8, vx = 2, vy = 3}, 'air')",
    "api move_body fast" => "sink = move_body({x = 40, y = 40, w = 8, h = 8, vx = 900, vy = 900}, 'air')",
    "api hb_add" => "pcall(hb_add, 99, 0, 1, 0, 0, 8, 8)",
    "api hb_pairs 60" => "sink = hb_pairs()",
    "api hb_query" => "sink = hb_query(0, 0, 100, 100)",
    "api rect_hit point_in" => "sink = rect_hit(0, 0, 8, 8, 4, 4, 8, 8) or point_in(1, 1, 0, 0, 8, 8)",
    // Bullets.
    "api bu_type" => "bu_type(2, 3, 1, 1, 2, 2)",
    "api bu_fire" => "bu_fire(128, 40, 64, 1, 0)",
    "api bu_aim nway ring spiral" => "bu_aim(128, 40, 1, 0) bu_nway(128, 40, 0, 5, 10, 1, 0) bu_ring(128, 40, 8, 1, 0) bu_spiral(128, 40, 3, 1, 0, 2)",
    "api bu_ring 200" => "bu_ring(128, 128, 200, 1, 0) bu_clear()",
    "api bu_burst" => "bu_burst(128, 40, 10, 1, 0, 3)",
    "api bu_player target shot" => "bu_player(100, 100) pcall(bu_target, 1, 0, 0, 8, 8) bu_shot(10, 10, 0, 4, 1)",
    "api bu_events count" => "sink = bu_events() sink = bu_count()",
    "api bu_cancel" => "sink = bu_cancel()",
    "api bu_layer rank atan sin" => "bu_layer(1) bu_rank(0.5) sink = bu_atan(1, 1) + bu_sin(3)",
    "api bu_pattern source" => "local id = bu_pattern('p', 10, 10) bu_source(id, 20, 20) bu_source_stop(id)",
    // Audio.
    "api sfx music stop playing" => "sfx('s') music('m') sink = playing() stop()",
    // Save RAM.
    "api sd_get sd_set sd_clear" => "sd_set(3, 7) sink = sd_get(3) sd_clear()",
    "api sd_write sd_read" => "sd_write(saved) sink = sd_read()",
    // Profiling.
    "api prof_begin prof_end" => "prof_begin('x') prof_end()",
}

/// The files every calibration cart has besides `main.lua`: maps (a small one and a
/// 256 x 256 one with 400 objects), a tileset, a tune, a sound and a BulletML pattern.
pub(crate) fn assets() -> Vec<(String, Vec<u8>)> {
    let manifest = "name = \"calibration\"\n\
        [[map]]\nfile = \"m.tmx\"\n[[map]]\nfile = \"big.tmx\"\n\
        [[music]]\nname = \"m\"\nmml = \"t120 c d e f g a b > c\"\n\
        [[sfx]]\nname = \"s\"\nmml = \"c\"\n";
    let tileset = r#"<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="2" columns="2">
  <image source="t.png" width="32" height="16"/>
  <tile id="1"><properties><property name="collide" value="solid"/></properties></tile>
 </tileset>"#;
    let small = format!(
        r#"<map orientation="orthogonal" width="4" height="2" tilewidth="16" tileheight="16">
 {tileset}
 <layer name="ground" width="4" height="2"><data encoding="csv">1,2,1,2,0,0,2,2</data></layer>
</map>"#
    );
    let cells: Vec<&str> = (0..256 * 256)
        .map(|i| {
            if (i / 256 + i % 256) % 7 == 0 {
                "2"
            } else {
                "1"
            }
        })
        .collect();
    let objects: String = (0..400)
        .map(|i| {
            format!(
                r#"<object id="{}" name="o{i}" x="{}" y="{}" width="8" height="8"/>"#,
                i + 1,
                i * 5,
                i * 3
            )
        })
        .collect();
    let big = format!(
        r#"<map orientation="orthogonal" width="256" height="256" tilewidth="16" tileheight="16">
 {tileset}
 <layer name="ground" width="256" height="256"><data encoding="csv">{}</data></layer>
 <objectgroup name="things">{objects}</objectgroup>
</map>"#,
        cells.join(",")
    );
    let pattern = r#"<bulletml><action label="top"><repeat><times>3</times><action><fire><bullet/></fire><wait>1</wait></action></repeat></action></bulletml>"#;
    vec![
        ("cart.toml".to_string(), manifest.as_bytes().to_vec()),
        ("m.tmx".to_string(), small.into_bytes()),
        ("big.tmx".to_string(), big.into_bytes()),
        ("t.png".to_string(), tileset_png()),
        ("p.xml".to_string(), pattern.as_bytes().to_vec()),
    ]
}

/// Two 16 px tiles in two greys.
fn tileset_png() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 32, 16);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let data: Vec<u8> = (0..32 * 16)
        .map(|i| if i % 32 < 16 { 60 } else { 200 })
        .collect();
    let written = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&data));
    debug_assert!(written.is_ok());
    bytes
}
